/// The words the feed's names are made of: Berlin and Brandenburg places, streets and operators, with
/// umlauts, `ß`, slashes and parentheses where the real names have them.
enum Texts {
    /// Places named by rail stations (`S+U Alexanderplatz Bhf (Berlin)`).
    static let railPlaces = [
        "Alexanderplatz", "Friedrichstr.", "Ostkreuz", "Westkreuz", "Gesundbrunnen", "Hermannstr.",
        "Schönhauser Allee", "Warschauer Str.", "Jannowitzbrücke", "Hackescher Markt", "Zoologischer Garten",
        "Südkreuz", "Yorckstr.", "Frankfurter Allee", "Lichtenberg", "Spandau", "Wannsee", "Köpenick",
        "Schöneweide", "Tempelhof", "Neukölln", "Pankow", "Wittenau", "Hauptbahnhof", "Potsdamer Platz",
        "Brandenburger Tor", "Nollendorfplatz", "Wittenbergplatz", "Kottbusser Tor", "Möckernbrücke",
        "Gleisdreieck", "Mehringdamm", "Rathaus Steglitz", "Zehlendorf", "Grünau", "Ostbahnhof", "Nordbahnhof",
        "Bornholmer Str.", "Greifswalder Str.", "Storkower Str.", "Treptower Park", "Sonnenallee", "Baumschulenweg",
        "Adlershof", "Altglienicke", "Flughafen BER", "Mahlsdorf", "Wuhletal", "Hönow", "Rudow", "Britz-Süd",
        "Tegel", "Hermsdorf", "Frohnau", "Buch", "Blankenburg", "Heinersdorf", "Weißensee", "Karow",
        "Marzahn", "Ahrensfelde", "Springpfuhl", "Friedrichsfelde", "Tierpark", "Olympiastadion",
        "Messe Nord/ICC", "Charlottenburg", "Savignyplatz", "Bellevue", "Tiergarten", "Beusselstr.",
        "Jungfernheide", "Siemensstadt", "Haselhorst", "Zitadelle", "Rathaus Spandau", "Grunewald",
        "Nikolassee", "Schlachtensee", "Mexikoplatz", "Lichterfelde Ost", "Lankwitz", "Marienfelde",
        "Buckower Chaussee", "Lichtenrade", "Blankenfelde", "Priesterweg", "Innsbrucker Platz",
    ]

    /// Street and square names of bus and tram stops (`Berlin, Lindenstr./Oranienstr.`).
    static let streets = [
        "Müggelheimer Str.", "Karl-Marx-Str.", "Sonnenallee", "Hauptstr.", "Bahnhofstraße", "Dorfstraße",
        "Straße der Pariser Kommune", "Straße des 17. Juni", "Frankfurter Allee", "Landsberger Allee",
        "Greifswalder Straße", "Prenzlauer Allee", "Torstr.", "Invalidenstr.", "Chausseestr.", "Müllerstr.",
        "Seestr.", "Amrumer Str.", "Turmstr.", "Alt-Moabit", "Kaiserdamm", "Bismarckstr.", "Kantstr.",
        "Kurfürstendamm", "Hohenzollerndamm", "Schloßstr.", "Unter den Linden", "Leipziger Str.",
        "Oranienstr.", "Lindenstr.", "Wolliner Str.", "Bernauer Str.", "Gartenstr.", "Rummelsburger Platz",
        "Köpenicker Str.", "Adlergestell", "Am Tierpark", "Rhinstr.", "Märkische Allee", "Wuhletalstr.",
        "Hönower Str.", "Blumberger Damm", "Mahlsdorfer Str.", "Grünauer Str.", "Spreestr.", "Havelchaussee",
        "Heerstr.", "Clayallee", "Königin-Luise-Str.", "Breitenbachplatz", "Rudower Str.", "Britzer Damm",
        "Buckower Damm", "Lichtenrader Damm", "Mariendorfer Damm", "Tempelhofer Damm", "Columbiadamm",
        "Hermannplatz", "Weißenseer Weg", "Berliner Allee", "Romain-Rolland-Str.", "Friedrich-Engels-Str.",
        "Ossietzkystr.", "Waldstr.", "Mühlenweg", "Fährweg", "Schulstr.", "Kirchstr.", "Am Anger",
        "Lindenallee", "Goethestr.", "Schillerstr.", "Rosa-Luxemburg-Str.", "Ernst-Thälmann-Str.",
        "Fürstenwalder Damm", "Bölschestr.", "Müggelseedamm", "Wendenschloßstr.", "An der Mühle",
        "Alt-Köpenick", "Grünstr.", "Straße am Flugplatz", "Alte Schönhauser Straße", "Weg zum Müggelturm",
        "Friedhof Grünau", "Krankenhaus Köpenick", "S Grünau/Wassersportallee", "Rathaus Lichtenberg",
        "Betriebshof Marzahn", "Schule am Görlitzer Park", "Jüdenstr.", "Fischerinsel", "Märkisches Museum",
    ]

    /// What a platform is: the start of a `stop_desc` (`Bushaltestelle Müllerstraße vor Seestraße`).
    static let platformKinds = ["Bushaltestelle", "Tramhaltestelle", "Bus- und Tramhaltestelle", "Bussteig"]

    /// The Brandenburg districts around Berlin, by compass sector (east first, counter-clockwise), each with
    /// its official code (the second part of a VBB stop id) and some of its towns.
    static let districts: [(code: String, towns: [String])] = [
        ("12064", ["Strausberg", "Hoppegarten", "Neuenhagen bei Berlin", "Petershagen/Eggersdorf"]),
        ("12060", ["Bernau bei Berlin", "Panketal", "Wandlitz", "Ahrensfelde"]),
        ("12065", ["Hohen Neuendorf", "Glienicke/Nordbahn", "Mühlenbecker Land", "Birkenwerder"]),
        ("12065", ["Oranienburg", "Hennigsdorf", "Velten", "Oberkrämer"]),
        ("12063", ["Falkensee", "Dallgow-Döberitz", "Schönwalde-Glien", "Wustermark"]),
        ("12054", ["Potsdam", "Potsdam, Babelsberg", "Potsdam, Bornstedt"]),
        ("12069", ["Kleinmachnow", "Teltow", "Stahnsdorf", "Werder (Havel)"]),
        ("12072", ["Blankenfelde-Mahlow", "Ludwigsfelde", "Großbeeren", "Rangsdorf"]),
        ("12061", ["Königs Wusterhausen", "Schönefeld", "Zeuthen", "Eichwalde", "Wildau"]),
        ("12067", ["Erkner", "Schöneiche bei Berlin", "Woltersdorf", "Fürstenwalde/Spree"]),
    ]

    /// Berlin's official code, the second part of its stop ids (`de:11000:900100001`).
    static let berlinCode = "11000"

    /// Operators: the first four are VBB's own ids and names, then bus companies of the region.
    static let agencies: [(id: String, name: String, url: String)] = [
        ("1", "S-Bahn Berlin GmbH", "https://sbahn.berlin"),
        ("796", "Berliner Verkehrsbetriebe", "https://www.bvg.de"),
        ("108", "DB Regio AG", "https://www.bahn.de/brandenburg"),
        ("731", "ODEG Ostdeutsche Eisenbahn GmbH", "https://www.odeg.de"),
    ]

    /// Names of regional bus companies, numbered when a large scale needs more agencies than listed.
    static let busCompanies = [
        "Havelbus Verkehrsgesellschaft mbH", "Verkehrsgesellschaft Teltow-Fläming mbH",
        "Barnimer Busgesellschaft mbH", "Oberhavel Verkehrsgesellschaft mbH", "Regiobus Potsdam Mittelmark GmbH",
        "Busverkehr Märkisch-Oderland GmbH", "Busverkehr Oder-Spree GmbH", "Regionale Verkehrsgesellschaft Dahme-Spreewald mbH",
        "Havelländische Verkehrsgesellschaft mbH", "Verkehrsbetrieb Potsdam GmbH", "Strausberger Eisenbahn GmbH",
        "Schöneicher-Rüdersdorfer Straßenbahn GmbH", "Woltersdorfer Straßenbahn GmbH", "Stern und Kreisschiffahrt GmbH",
        "Niederbarnimer Eisenbahn AG", "Hanseatische Eisenbahn GmbH", "Uckermärkische Verkehrsgesellschaft mbH",
        "Verkehrsmanagement Elbe-Elster GmbH", "Cottbusverkehr GmbH", "Frankfurter Verkehrsgesellschaft mbH",
    ]

    /// Names of station levels; some hold commas, as in VBB's own `levels.txt`.
    static let levelNames = [
        "", "Straßenebene", "U-Bahnsteig", "S Bahnsteig", "Zwischengeschoss", "Zwischengeschoss U-Bahn, Treppenabsatz U2",
        "Fernbahnsteig", "Verteilerebene, Ausgang Nord", "Bahnsteig Gleis 1/2",
    ]

    /// Line colours of rail and tram routes (`route_color`, text in white).
    static let lineColors = [
        "7DAD4C", "DA421E", "16683D", "526337", "7E5330", "8C6DAB", "224F86", "0A3C85", "963D11", "BE1414",
        "F3791D", "007734", "00A092", "B2B2B2", "D9222A", "1C3F95",
    ]
}
