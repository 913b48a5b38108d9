import Testing

@testable import Varlink

/// The parameter names read from an interface's IDL (VarlinkInterface+Parameters.swift), which
/// the server's decoding matches a call's names against by their bytes.
@Suite("Interface parameters")
struct InterfaceParametersTests {
    @Test("each declared method lists its parameter names, in IDL order")
    func declaredByInterface() {
        let interface = VarlinkInterface(name: "org.example.test", description: testIDL, methods: [:])
        #expect(interface.declaredParameters["Echo"] == ["text"])
        #expect(interface.declaredParameters["Count"] == ["n"])
        #expect(interface.declaredParameters["Whoami"] == [])
    }

    @Test("a method's parameter names are its input struct's top-level fields, across lines and comments")
    func topLevelFields() {
        let idl = """
            interface org.example.names
            # method Commented(no: int) -> ()
            type Pair (x: int, y: int)
            method Plain(a: int, b_2: ?string) -> (out: int)
            method Spread(
              # a comment (with: parens, and: colons)
              first: ?(x: int, y: ?[]string),
              mode: (one, two),
              last : [string]int
            ) -> (ignored: int)
            method Empty() -> (result: (inner: int))
            """
        // Only methods: the commented one and the type are not read; nested fields and enum
        // values are not parameters; `last :` with a space is.
        #expect(
            VarlinkInterface.parameterNames(in: idl) == [
                "Plain": ["a", "b_2"],
                "Spread": ["first", "mode", "last"],
                "Empty": [],
            ]
        )
    }

    @Test("only plain names of at most 16 bytes are matched by their bytes")
    func matchedNames() {
        #expect(MethodRoutes.DeclaredName("ifNoneMatch") != nil)
        #expect(MethodRoutes.DeclaredName(String(repeating: "a", count: 16)) != nil)
        // 17 bytes, a non-ASCII letter, a quote, empty: decoded as any other name.
        for name in [String(repeating: "a", count: 17), "é", "a\"b", ""] {
            #expect(MethodRoutes.DeclaredName(name) == nil)
        }
    }
}
