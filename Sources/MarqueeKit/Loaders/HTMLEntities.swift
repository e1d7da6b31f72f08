import Foundation

/// Recovers HTML named entities (`&eacute;`, `&nbsp;`) in XML feeds, where they are undefined
/// but common: each becomes a numeric reference before the XML parser sees it. An unknown name
/// is kept as literal text (`&amp;name;`) rather than failing the whole feed. CDATA sections and
/// comments are left alone.
enum HTMLEntities {
    static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// The HTML 4 entity set: Latin-1 (U+00A0…U+00FF) in order, then the rest by name.
    static let table: [String: UInt32] = {
        let latin1 = """
            nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 \
            acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde \
            Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute \
            Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde \
            auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc \
            otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
            """.split(separator: " ")
        var table: [String: UInt32] = [:]
        for (offset, name) in latin1.enumerated() { table[String(name)] = 0xA0 + UInt32(offset) }
        let greek = "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho".split(separator: " ")
        for (offset, name) in greek.enumerated() {
            table[String(name)] = 0x391 + UInt32(offset)
            table[String(name).lowercased()] = 0x3B1 + UInt32(offset)
        }
        let greekTail = "Sigma Tau Upsilon Phi Chi Psi Omega".split(separator: " ")
        for (offset, name) in greekTail.enumerated() {
            table[String(name)] = 0x3A3 + UInt32(offset)
            table[String(name).lowercased()] = 0x3C3 + UInt32(offset)
        }
        let others: [String: UInt32] = [
            "OElig": 338, "oelig": 339, "Scaron": 352, "scaron": 353, "Yuml": 376, "fnof": 402, "circ": 710,
            "tilde": 732, "sigmaf": 962, "thetasym": 977, "upsih": 978, "piv": 982, "ensp": 8194, "emsp": 8195,
            "thinsp": 8201, "zwnj": 8204, "zwj": 8205, "lrm": 8206, "rlm": 8207, "ndash": 8211, "mdash": 8212,
            "lsquo": 8216, "rsquo": 8217, "sbquo": 8218, "ldquo": 8220, "rdquo": 8221, "bdquo": 8222,
            "dagger": 8224, "Dagger": 8225, "bull": 8226, "hellip": 8230, "permil": 8240, "prime": 8242,
            "Prime": 8243, "lsaquo": 8249, "rsaquo": 8250, "oline": 8254, "frasl": 8260, "euro": 8364,
            "image": 8465, "weierp": 8472, "real": 8476, "trade": 8482, "alefsym": 8501, "larr": 8592,
            "uarr": 8593, "rarr": 8594, "darr": 8595, "harr": 8596, "crarr": 8629, "lArr": 8656, "uArr": 8657,
            "rArr": 8658, "dArr": 8659, "hArr": 8660, "forall": 8704, "part": 8706, "exist": 8707, "empty": 8709,
            "nabla": 8711, "isin": 8712, "notin": 8713, "ni": 8715, "prod": 8719, "sum": 8721, "minus": 8722,
            "lowast": 8727, "radic": 8730, "prop": 8733, "infin": 8734, "ang": 8736, "and": 8743, "or": 8744,
            "cap": 8745, "cup": 8746, "int": 8747, "there4": 8756, "sim": 8764, "cong": 8773, "asymp": 8776,
            "ne": 8800, "equiv": 8801, "le": 8804, "ge": 8805, "sub": 8834, "sup": 8835, "nsub": 8836,
            "sube": 8838, "supe": 8839, "oplus": 8853, "otimes": 8855, "perp": 8869, "sdot": 8901, "lceil": 8968,
            "rceil": 8969, "lfloor": 8970, "rfloor": 8971, "lang": 9001, "rang": 9002, "loz": 9674,
            "spades": 9824, "clubs": 9827, "hearts": 9829, "diams": 9830,
        ]
        table.merge(others) { $1 }
        return table
    }()

    /// `data` with every HTML named entity made a numeric reference (an unknown one `&amp;name;`)
    /// and every `&` that starts no reference escaped, outside CDATA sections and comments.
    static func replaceNamedEntities(in data: Data) -> Data {
        let bytes = data.span
        guard bytes.position(of: UInt8(ascii: "&"), from: 0) != nil else { return data }
        // Bytes before `copied` are in `output`; runs without a replacement are copied whole. A
        // feed whose references are all XML's own or numeric (escaped HTML: `&lt;p&gt;`) is
        // returned as it is, not copied.
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        var section = nextSection(in: bytes, from: 0)
        while let ampersand = bytes.position(of: UInt8(ascii: "&"), from: index) {
            if section.start < ampersand {
                // A CDATA section or comment is left as it is, up to where its closing marker
                // starts (looked for from its `<`).
                index = bytes.position(of: section.close, from: section.start) ?? bytes.count
                section = nextSection(in: bytes, from: index)
                continue
            }
            index = ampersand
            // A name: letters and digits up to ';'.
            var end = index + 1
            while end < bytes.count, end - index <= 32, isASCIILetterOrDigit(bytes[end]) { end += 1 }
            let name = bytes.extracting((index + 1)..<end)
            let terminated = end < bytes.count && bytes[end] == UInt8(ascii: ";")
            let isXML = isXMLEntity(name)
            var replacement: String?
            if terminated, !name.isEmpty, !isXML, isASCIILetter(name[0]) {
                var text: [UInt8] = []
                text.append(name)
                let entity = String(decoding: text, as: UTF8.self)
                replacement = table[entity].map { "&#\($0);" } ?? "&amp;\(entity);"
                end += 1
            } else if !terminated, !isXML, !(end < bytes.count && bytes[index + 1] == UInt8(ascii: "#")) {
                // A bare '&' is escaped; numeric references (`&#…`) and XML's own are kept.
                replacement = "&amp;"
                end = index + 1
            }
            guard let replacement else {
                index += 1
                continue
            }
            if output.isEmpty { output.reserveCapacity(bytes.count + 64) }
            output.append(bytes.extracting(copied..<index))
            output.append(contentsOf: replacement.utf8)
            copied = end
            index = end
        }
        guard copied > 0 else { return data }
        output.append(bytes.extracting(copied...))
        return Data(output)
    }

    private static let sections = [XMLTree.cdata, XMLTree.comment]

    /// The next CDATA section or comment at or after `start` (`start` is the end when none is).
    private static func nextSection(in bytes: Span<UInt8>, from start: Int) -> (start: Int, close: [UInt8]) {
        var next = (start: bytes.count, close: [UInt8]())
        for section in sections {
            if let found = bytes.position(of: section.open, from: start), found < next.start { next = (found, section.close) }
        }
        return next
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool { (byte >= 0x30 && byte <= 0x39) || isASCIILetter(byte) }

    /// Whether `name` is one of ``xmlEntities``, read from its bytes.
    private static func isXMLEntity(_ name: Span<UInt8>) -> Bool {
        guard name.count >= 2, name.count <= 4 else { return false }
        return xmlEntityBytes.contains { $0.count == name.count && name.hasPrefix($0, at: 0) }
    }

    private static let xmlEntityBytes = xmlEntities.map { Array($0.utf8) }
}
