/// A self-signed certificate for 127.0.0.1 (a CA of its own, valid until 2126) and its key, for the tests'
/// https server. Trusted by nothing but a test that names it: a client that verifies against the system's
/// certificates refuses it.
public enum TestCertificate {
    /// The certificate, PEM.
    public static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBkTCCATagAwIBAgIUQIUeRcSiGA6ZuTlj/Z4Wvc7PLZMwCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyNzAzNDAzN1oYDzIxMjYxMTAz
        MDM0MDM3WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAAS+J/DaPb0cwhUVkWoSEo1wfMoMu9QCThfx6k4CxqDyR0imh+VDCWW7
        Dbvx8b9qhfiU1Fp/5vjVan8h1+5gm0S2o2QwYjAdBgNVHQ4EFgQUZcBERahJocGI
        uVL+wggVxWFZh3swHwYDVR0jBBgwFoAUZcBERahJocGIuVL+wggVxWFZh3swDwYD
        VR0RBAgwBocEfwAAATAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYC
        IQC8nFeELZT5QW6sMwUhLg02ly9GF1VU5TB9vrbT9aH0bAIhAPerHasrEFmpAR8p
        vqOFerjK7slU27UK1SMYlpOtE+Bb
        -----END CERTIFICATE-----
        """

    /// Its private key (P-256), PEM.
    public static let privateKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgcJk7uCy7afSGmH5U
        Eod4BfN2ynyTfT0QlLKYG4xgag6hRANCAAS+J/DaPb0cwhUVkWoSEo1wfMoMu9QC
        Thfx6k4CxqDyR0imh+VDCWW7Dbvx8b9qhfiU1Fp/5vjVan8h1+5gm0S2
        -----END PRIVATE KEY-----
        """
}
