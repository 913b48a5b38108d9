internal import Glibc

/// A character encoding the parser can read a document in, and how it is decoded.
///
/// Every document reaches libxml2 as UTF-8 (`InputDecoder`), so libxml2's own encoding
/// switching and its silent stop on the first unconvertible byte never come into play.
enum TextEncoding: Equatable {
    /// Validated and repaired by `UTF8Sanitizer` itself: the common case, no conversion.
    case utf8
    /// Decoded by table in `UTF8Sanitizer` (WHATWG `windows-1252`, also what `iso-8859-1`
    /// and `us-ascii` mean on the web).
    case windows1252
    /// WHATWG `x-user-defined`: bytes 0x80–0xFF map to U+F780–U+F7FF; decoded by table.
    case xUserDefined
    /// UTF-16 and UTF-32 (XML allows UTF-32; the web does not), converted by glibc iconv.
    case utf16(bigEndian: Bool)
    case utf32(bigEndian: Bool)
    /// WHATWG's `replacement` encoding (ISO-2022-KR, HZ-GB-2312, ISO-2022-CN…): its labels
    /// exist so that such documents are refused rather than misread.
    case replacement
    /// Converted to UTF-8 by glibc iconv under this name (e.g. `CP949` for WHATWG `EUC-KR`).
    case converted(iconvName: String)

    /// True when the byte 0x3C is `<` and ASCII means ASCII: what a document whose first
    /// bytes are ASCII can be declared in. For iconv encodings this is probed once per name.
    var isASCIICompatible: Bool {
        switch self {
        case .utf8, .windows1252, .xUserDefined, .replacement: return true
        case .utf16, .utf32: return false
        case .converted(let name): return IconvConverter.decodesASCIIUnchanged(name)
        }
    }

    /// The iconv name for the encodings glibc converts.
    var iconvName: String? {
        switch self {
        case .utf16(let bigEndian): return bigEndian ? "UTF-16BE" : "UTF-16LE"
        case .utf32(let bigEndian): return bigEndian ? "UTF-32BE" : "UTF-32LE"
        case .converted(let name): return name
        case .utf8, .windows1252, .xUserDefined, .replacement: return nil
        }
    }

    /// Bytes per code unit: how far to skip past an invalid sequence.
    var codeUnitSize: Int {
        switch self {
        case .utf16: return 2
        case .utf32: return 4
        default: return 1
        }
    }
}

/// An encoding label resolved to an encoding, with the name to show in warnings.
struct ResolvedEncoding: Equatable {
    var encoding: TextEncoding
    /// The WHATWG name (`EUC-KR`, `windows-1252`), or the iconv name outside the WHATWG table.
    var name: String
}

/// Encoding labels as the web uses them: the label table of the WHATWG Encoding Standard
/// (https://encoding.spec.whatwg.org/#names-and-labels), so `euc-kr` means windows-949,
/// `gb2312` means GBK (decoded as gb18030, its superset, as the standard does) and
/// `iso-8859-1`/`us-ascii` mean windows-1252. `_` and `-` are one: `iso_8859_1` and `euc_kr`
/// are looked up as `iso-8859-1` and `euc-kr`.
///
/// Labels outside the table are tried with glibc iconv (feeds in the wild say `cp437`, `850`,
/// `ibm037`, `utf-32`…): a name iconv knows is decoded as what it names rather than silently
/// as UTF-8, except glibc's other names for the encodings the standard reads as a superset
/// (`glibcAliases`: `8859_1`, `ANSI_X3.4-1986`…), which are read as the standard reads them.
/// UTF-7 is refused: no browser decodes it, and it can smuggle markup past filters.
enum EncodingLabel {
    /// The encoding a label names, or nil for a label neither the WHATWG table nor iconv knows.
    static func resolve(_ label: String) -> ResolvedEncoding? {
        let lowered = normalized(label)
        guard !lowered.isEmpty else { return nil }
        let key = lowered.replacingUnderscores()
        if let known = whatwg[key] { return known }
        if let alias = glibcAliases[key] { return whatwg[alias] }
        if let xml = xmlOnly[key] { return xml }
        guard !refused.contains(key) else { return nil }
        return iconvFallback(lowered)
    }

    /// ASCII whitespace trimmed and lowercased, as the standard's "get an encoding" does.
    static func normalized(_ label: String) -> String {
        String(URIReference.trimASCIIAndNBSP(label)).lowercased()
    }

    /// glibc iconv's other names (its `gconv-modules` aliases and built-in ASCII names, with `_`
    /// read as `-`) for the encodings the WHATWG standard reads as a superset, mapped to the
    /// standard's label for it: ISO-8859-1 and US-ASCII are windows-1252, ISO-8859-9 is
    /// windows-1254, TIS-620 is windows-874 and EUC-KR is windows-949. Without these, iconv
    /// would decode `8859_1` as true Latin-1 (0x93 a C1 control, not “), `ANSI_X3.4-1986`
    /// with every byte above 0x7F invalid, and `euckr` without the CP949 syllables (똠).
    private static let glibcAliases: [String: String] = {
        let groups = [
            (
                "windows-1252",
                "8859-1 osf00010001 iso-ir-6 ansi-x3.4-1986 iso-646.irv:1991 iso646-us us ibm367 cp367 csascii "
                    + "osf00010020"
            ),
            ("windows-1254", "8859-9 osf00010009 ibm920 cp920 ts-5881 ecma-128"),
            ("windows-874", "tis620 tis620-0 tis620.2529-1 tis620.2533-0 iso-ir-166"),
            ("euc-kr", "euckr osf0004000a"),
        ]
        var map: [String: String] = [:]
        for (label, names) in groups {
            for name in names.split(separator: " ") { map[String(name)] = label }
        }
        return map
    }()

    /// UTF-32 and UCS-4: XML documents may be written in them (XML 1.0 appendix F), the web
    /// has no label for them.
    private static let xmlOnly: [String: ResolvedEncoding] = [
        "utf-32": ResolvedEncoding(encoding: .utf32(bigEndian: true), name: "UTF-32BE"),
        "utf-32be": ResolvedEncoding(encoding: .utf32(bigEndian: true), name: "UTF-32BE"),
        "utf-32le": ResolvedEncoding(encoding: .utf32(bigEndian: false), name: "UTF-32LE"),
        "ucs-4": ResolvedEncoding(encoding: .utf32(bigEndian: true), name: "UTF-32BE"),
        "iso-10646-ucs-4": ResolvedEncoding(encoding: .utf32(bigEndian: true), name: "UTF-32BE"),
    ]

    /// Labels other decoders (Python, Java) accept that glibc spells differently.
    private static let aliases: [String: String] = [
        "cp_is": "CP861", "csibm861": "IBM861", "ibm039": "IBM037", "maccentraleurope": "MAC-CENTRALEUROPE",
        "maclatin2": "MAC-CENTRALEUROPE", "maciceland": "MAC-IS", "macroman": "MACINTOSH",
        "mac-roman": "MACINTOSH", "x-windows-949": "CP949", "uhc": "CP949", "ms949": "CP949", "cp949": "CP949",
        "ms936": "GB18030", "cp936": "GB18030",
    ]

    private static let refused: Set<String> = [
        "utf-7", "utf7", "unicode-1-1-utf-7", "csunicode11utf7", "x-imap4-modified-utf7", "utf-7-imap",
    ]

    /// A name glibc iconv opens, tried as written, with `_` read as `-`, and via `aliases`.
    private static func iconvFallback(_ key: String) -> ResolvedEncoding? {
        // Only plain names: iconv reads suffixes such as `//TRANSLIT` as conversion options.
        guard key.utf8.count <= 40,
            key.utf8.allSatisfy({
                $0.isASCIILetter || $0.isASCIIDigit || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || $0 == 0x3A
            })
        else { return nil }
        var candidates: [String] = []
        if let alias = aliases[key] { candidates.append(alias) }
        candidates.append(key.uppercased())
        candidates.append(key.uppercased().replacingUnderscores())
        for name in candidates where IconvConverter.isAvailable(name) {
            if refused.contains(name.lowercased().replacingUnderscores()) { return nil }
            switch name {
            case "UTF-8", "UTF8": return ResolvedEncoding(encoding: .utf8, name: "UTF-8")
            case "UTF-16BE": return ResolvedEncoding(encoding: .utf16(bigEndian: true), name: "UTF-16BE")
            case "UTF-16LE", "UTF-16": return ResolvedEncoding(encoding: .utf16(bigEndian: false), name: "UTF-16LE")
            default: return ResolvedEncoding(encoding: .converted(iconvName: name), name: name)
            }
        }
        return nil
    }

    /// Label → encoding, built once from `table`.
    private static let whatwg: [String: ResolvedEncoding] = {
        var map: [String: ResolvedEncoding] = [:]
        map.reserveCapacity(240)
        for (name, encoding, labels) in table {
            for label in labels.split(separator: " ") {
                map[String(label).replacingUnderscores()] = ResolvedEncoding(encoding: encoding, name: name)
            }
        }
        return map
    }()

    /// The WHATWG Encoding Standard's encodings with their labels, and the glibc iconv
    /// converter each is decoded with where it is not decoded natively. Big5 is read as
    /// Big5-HKSCS and Shift_JIS as CP932, the supersets the standard's indexes describe.
    private static let table: [(String, TextEncoding, String)] = [
        ("UTF-8", .utf8, "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"),
        ("IBM866", .converted(iconvName: "IBM866"), "866 cp866 csibm866 ibm866"),
        (
            "ISO-8859-2", .converted(iconvName: "ISO-8859-2"),
            "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2"
        ),
        (
            "ISO-8859-3", .converted(iconvName: "ISO-8859-3"),
            "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3"
        ),
        (
            "ISO-8859-4", .converted(iconvName: "ISO-8859-4"),
            "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4"
        ),
        (
            "ISO-8859-5", .converted(iconvName: "ISO-8859-5"),
            "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988"
        ),
        (
            "ISO-8859-6", .converted(iconvName: "ISO-8859-6"),
            "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e "
                + "iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"
        ),
        (
            "ISO-8859-7", .converted(iconvName: "ISO-8859-7"),
            "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 "
                + "iso_8859-7 iso_8859-7:1987 sun_eu_greek"
        ),
        (
            "ISO-8859-8", .converted(iconvName: "ISO-8859-8"),
            "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 "
                + "iso_8859-8 iso_8859-8:1988 visual"
        ),
        ("ISO-8859-8-I", .converted(iconvName: "ISO-8859-8"), "csiso88598i iso-8859-8-i logical"),
        (
            "ISO-8859-10", .converted(iconvName: "ISO-8859-10"),
            "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6"
        ),
        ("ISO-8859-13", .converted(iconvName: "ISO-8859-13"), "iso-8859-13 iso8859-13 iso885913"),
        ("ISO-8859-14", .converted(iconvName: "ISO-8859-14"), "iso-8859-14 iso8859-14 iso885914"),
        (
            "ISO-8859-15", .converted(iconvName: "ISO-8859-15"),
            "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9"
        ),
        ("ISO-8859-16", .converted(iconvName: "ISO-8859-16"), "iso-8859-16"),
        ("KOI8-R", .converted(iconvName: "KOI8-R"), "cskoi8r koi koi8 koi8-r koi8_r"),
        ("KOI8-U", .converted(iconvName: "KOI8-U"), "koi8-ru koi8-u"),
        ("macintosh", .converted(iconvName: "MACINTOSH"), "csmacintosh mac macintosh x-mac-roman"),
        (
            "windows-874", .converted(iconvName: "CP874"),
            "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"
        ),
        ("windows-1250", .converted(iconvName: "CP1250"), "cp1250 windows-1250 x-cp1250"),
        ("windows-1251", .converted(iconvName: "CP1251"), "cp1251 windows-1251 x-cp1251"),
        (
            "windows-1252", .windows1252,
            "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 "
                + "iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"
        ),
        ("windows-1253", .converted(iconvName: "CP1253"), "cp1253 windows-1253 x-cp1253"),
        (
            "windows-1254", .converted(iconvName: "CP1254"),
            "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 "
                + "latin5 windows-1254 x-cp1254"
        ),
        ("windows-1255", .converted(iconvName: "CP1255"), "cp1255 windows-1255 x-cp1255"),
        ("windows-1256", .converted(iconvName: "CP1256"), "cp1256 windows-1256 x-cp1256"),
        ("windows-1257", .converted(iconvName: "CP1257"), "cp1257 windows-1257 x-cp1257"),
        ("windows-1258", .converted(iconvName: "CP1258"), "cp1258 windows-1258 x-cp1258"),
        ("x-mac-cyrillic", .converted(iconvName: "MAC-CYRILLIC"), "x-mac-cyrillic x-mac-ukrainian"),
        (
            "GBK", .converted(iconvName: "GB18030"),
            "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk"
        ),
        ("gb18030", .converted(iconvName: "GB18030"), "gb18030"),
        ("Big5", .converted(iconvName: "BIG5-HKSCS"), "big5 big5-hkscs cn-big5 csbig5 x-x-big5"),
        ("EUC-JP", .converted(iconvName: "EUC-JP"), "cseucpkdfmtjapanese euc-jp x-euc-jp"),
        ("ISO-2022-JP", .converted(iconvName: "ISO-2022-JP"), "csiso2022jp iso-2022-jp"),
        (
            "Shift_JIS", .converted(iconvName: "CP932"),
            "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"
        ),
        (
            "EUC-KR", .converted(iconvName: "CP949"),
            "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 "
                + "windows-949"
        ),
        ("replacement", .replacement, "csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement"),
        ("UTF-16BE", .utf16(bigEndian: true), "unicodefffe utf-16be"),
        (
            "UTF-16LE", .utf16(bigEndian: false),
            "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le"
        ),
        ("x-user-defined", .xUserDefined, "x-user-defined"),
    ]
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }
}
