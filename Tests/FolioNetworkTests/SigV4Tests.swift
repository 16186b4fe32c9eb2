@testable import FolioCore
@testable import FolioNetwork
import Foundation
import XCTest

/// Request signing, stage by stage, against published vectors: SHA-256 against NIST's examples
/// (FIPS 180-4), HMAC-SHA256 against RFC 4231, and SigV4 against AWS's signature test suite
/// (`aws-sig-v4-test-suite`, 2015 edition: service "service", us-east-1, 20150830T123600Z) and
/// the signed GET of Amazon S3's own documentation.
final class SigV4Tests: XCTestCase {
    func testSHA256MatchesNISTsExamples() {
        XCTAssertEqual(SHA256.hex(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Fed in uneven pieces, across block boundaries: the same digest.
        var hasher = SHA256()
        let text = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        for piece in [text.prefix(3), text.dropFirst(3).prefix(60), text.dropFirst(63)] { hasher.update(piece) }
        XCTAssertEqual(hasher.finish().hexText, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testHMACMatchesRFC4231() {
        XCTAssertEqual(HMAC.sha256(key: [UInt8](repeating: 0x0b, count: 20), "Hi There").hexText,
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(HMAC.sha256(key: Array("Jefe".utf8), "what do ya want for nothing?").hexText,
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        XCTAssertEqual(HMAC.sha256(key: [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First").hexText,
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    // MARK: - AWS's test suite

    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)  // 20150830T123600Z
    static let suite = SigV4Signer(credentials: S3Credentials(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                                   region: "us-east-1", service: "service")

    /// Signs the suite's request and gives its Authorization header.
    func authorization(_ method: WebRequest.Method, _ target: String, headers: [(String, String)] = [], body: String = "",
                       signer: SigV4Signer = SigV4Tests.suite) -> String {
        let request = WebRequest(method, URL(string: "https://example.amazonaws.com" + target)!, headers: headers,
                                 body: body.isEmpty ? nil : Data(body.utf8))
        let signed = signer.sign(request, payloadHash: SHA256.hex(Data(body.utf8)), date: Self.suiteDate)
        return signed.headers.last { $0.name == "Authorization" }!.value
    }

    func expected(_ signedHeaders: String, _ signature: String) -> String {
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    func testGetVanillaStageByStage() {
        XCTAssertEqual(SigV4Signer.timestamp(Self.suiteDate), "20150830T123600Z")
        var request = WebRequest(.get, URL(string: "https://example.amazonaws.com/")!)
        request.headers.append(("X-Amz-Date", "20150830T123600Z"))
        let (canonical, signed) = Self.suite.canonicalRequest(request, payloadHash: SHA256.hex(Data()))
        XCTAssertEqual(canonical, """
            GET
            /

            host:example.amazonaws.com
            x-amz-date:20150830T123600Z

            host;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        XCTAssertEqual(signed, "host;x-amz-date")
        XCTAssertEqual(Self.suite.stringToSign(canonical, date: Self.suiteDate), """
            AWS4-HMAC-SHA256
            20150830T123600Z
            20150830/us-east-1/service/aws4_request
            bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63
            """)
        XCTAssertEqual(authorization(.get, "/"), expected("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"))
    }

    func testTheSuitesQueryVectors() {
        XCTAssertEqual(authorization(.get, "/?Param2=value2&Param1=value1"),
                       expected("host;x-amz-date", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
                       "get-vanilla-query-order-key-case: sorted by name")
        XCTAssertEqual(authorization(.get, "/?Param1=value2&Param1=value1"),
                       expected("host;x-amz-date", "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
                       "get-vanilla-query-order-value: then by value")
        XCTAssertEqual(authorization(.get, "/?%E1%88%B4=bar"),
                       expected("host;x-amz-date", "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
                       "get-vanilla-utf8-query: UTF-8, percent-encoded")
        XCTAssertEqual(authorization(.get, "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
                       expected("host;x-amz-date", "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
                       "get-unreserved")
    }

    func testTheSuitesHeaderVectors() {
        XCTAssertEqual(authorization(.get, "/", headers: [("My-Header1", " value1"), ("My-Header2", "\"a   b   c\"")]),
                       expected("host;my-header1;my-header2;x-amz-date", "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
                       "get-header-value-trim")
        XCTAssertEqual(authorization(.get, "/", headers: [("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"),
                                                          ("My-Header1", "value2")]),
                       expected("host;my-header1;x-amz-date", "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"),
                       "get-header-value-order: a repeated header's values in the order sent")
        XCTAssertEqual(authorization(.get, "/", headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")]),
                       expected("host;my-header1;x-amz-date", "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
                       "get-header-key-duplicate")
        XCTAssertEqual(authorization(.post, "/", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "Param1=value1"),
                       expected("content-type;host;x-amz-date", "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
                       "post-x-www-form-urlencoded: the body's hash is signed")
        var withToken = Self.suite
        withToken.credentials.sessionToken = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267"
        XCTAssertEqual(authorization(.get, "/", signer: withToken),
                       expected("host;x-amz-date;x-amz-security-token", "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
                       "a session token is sent and signed")
    }

    /// The GET Object example of S3's documentation ("Signature Calculations for the
    /// Authorization Header"): the service S3 itself, a Range header, the payload hash header.
    func testS3sDocumentedGetObject() {
        let signer = SigV4Signer(credentials: S3Credentials(accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                 region: "us-east-1")
        let empty = SHA256.hex(Data())
        let request = WebRequest(.get, URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!,
                                 headers: [("Range", "bytes=0-9"), ("x-amz-content-sha256", empty)])
        let date = Date(timeIntervalSince1970: 1_369_353_600)  // 20130524T000000Z
        let signed = signer.sign(request, payloadHash: empty, date: date)
        var dated = request
        dated.headers.append(("X-Amz-Date", "20130524T000000Z"))
        XCTAssertEqual(SHA256.hex(Data(signer.canonicalRequest(dated, payloadHash: empty).text.utf8)),
                       "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972")
        XCTAssertEqual(signed.headers.last?.value,
                       "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                       + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                       + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    func testKeysAreEncodedAsS3SignsThem() throws {
        XCTAssertEqual(SigV4Signer.encode("photos/a b+c$é.html", keepingSlashes: true), "photos/a%20b%2Bc%24%C3%A9.html")
        XCTAssertEqual(SigV4Signer.encode("a/b"), "a%2Fb")
        let bucket = try S3Bucket(name: "site", endpoint: URL(string: "http://127.0.0.1:9000/")!, region: "auto",
                              credentials: S3Credentials(accessKey: "a", secretKey: "b"))
        XCTAssertEqual(bucket.url("photos/a b.html").absoluteString, "http://127.0.0.1:9000/site/photos/a%20b.html")
        XCTAssertEqual(bucket.url("", query: [("list-type", "2"), ("prefix", "a/")]).absoluteString,
                       "http://127.0.0.1:9000/site/?list-type=2&prefix=a%2F")
        let aws = try S3Bucket(name: "site", endpoint: nil, region: "eu-west-1", credentials: S3Credentials(accessKey: "a", secretKey: "b"))
        XCTAssertEqual(aws.url("index.html").absoluteString, "https://site.s3.eu-west-1.amazonaws.com/index.html")
    }

    func testCredentialsComeFromTheEnvironmentOrAProfileAndAreNeverShown() throws {
        let env = try S3Credentials.find(environment: ["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "tok"])
        XCTAssertEqual(env, S3Credentials(accessKey: "AKIDENV", secretKey: "s3cr3t", sessionToken: "tok"))
        XCTAssertFalse("\(env)".contains("s3cr3t"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("folio-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("""
            [default]
            aws_access_key_id = AKIDDEFAULT
            aws_secret_access_key = one

            [gallery]
            # the site's own
            aws_access_key_id=AKIDGALLERY
            aws_secret_access_key = two
            """.utf8).write(to: file)
        let profile = try S3Credentials.find(environment: ["AWS_PROFILE": "gallery", "AWS_SHARED_CREDENTIALS_FILE": file.path])
        XCTAssertEqual(profile, S3Credentials(accessKey: "AKIDGALLERY", secretKey: "two"))
        XCTAssertEqual(try S3Credentials.find(environment: ["AWS_SHARED_CREDENTIALS_FILE": file.path]).accessKey, "AKIDDEFAULT")
        XCTAssertThrowsError(try S3Credentials.find(environment: ["AWS_PROFILE": "none", "AWS_SHARED_CREDENTIALS_FILE": file.path])) {
            XCTAssertTrue("\($0)".contains("no profile 'none'"), "\($0)")
        }
        XCTAssertThrowsError(try S3Credentials.find(environment: ["HOME": "/nonexistent"])) {
            XCTAssertTrue("\($0)".contains("no credentials"), "\($0)")
        }
    }
}
