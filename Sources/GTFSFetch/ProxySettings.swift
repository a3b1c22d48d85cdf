import AsyncHTTPClient
import Foundation

/// The proxy a URL is fetched through, from the environment as curl reads it: `HTTPS_PROXY` for https,
/// `HTTP_PROXY` for http (or their lower-case forms), none for a host `NO_PROXY` names (a comma-separated
/// list of hosts and domains, `.example.org` or `example.org` for it and its subdomains, `*` for all).
enum ProxySettings {
    /// The proxy for `url`, or `nil` to connect directly.
    static func proxy(for url: URL, environment: [String: String]) -> HTTPClient.Configuration.Proxy? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        func value(_ name: String) -> String? {
            (environment[name.lowercased()] ?? environment[name.uppercased()]).flatMap { $0.isEmpty ? nil : $0 }
        }
        if let exceptions = value("no_proxy"), bypasses(host: host, exceptions) { return nil }
        guard let text = value(scheme == "https" ? "https_proxy" : "http_proxy") else { return nil }
        let proxyURL = URL(string: text.contains("://") ? text : "http://" + text)
        guard let proxyHost = proxyURL?.host, !proxyHost.isEmpty else { return nil }
        var authorization: HTTPClient.Authorization?
        if let user = proxyURL?.user(percentEncoded: false) {
            authorization = .basic(username: user, password: proxyURL?.password(percentEncoded: false) ?? "")
        }
        return .server(host: proxyHost, port: proxyURL?.port ?? 80, authorization: authorization)
    }

    /// Whether `NO_PROXY`'s list names `host`.
    static func bypasses(host: String, _ list: String) -> Bool {
        for entry in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
            if entry == "*" { return true }
            // `host:port` entries name the host.
            var name = entry.hasPrefix("[") ? entry : String(entry.split(separator: ":").first ?? "")
            if name.hasPrefix("*.") { name.removeFirst() }
            if name.hasPrefix(".") { name.removeFirst() }
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }
}
