// Package compile writes the standalone Go verifier of an interaction (what
// `ivc compile` does): a package that checks multi-traces against the
// automata engine's checker for some locations, importing only the
// standard library, with a copy of package internal/nfa/engine's files.
//
// gen works on nfa's tables and typed letters (nfa.Action), never on the
// interaction or its notation: the caller compiles the interaction and
// hands gen the checker of a partition of its lifelines, with the
// signature's names (see the example).
//
//	e, err := automata.New(sp.Store, sp.Root, automata.Options{Mode: verdict.Accept})
//	c, err := e.Checker(part) // one location per group of lifelines
//	files, err := compile.Generate(compile.Config{Package: "abpverify", Checker: c,
//		Lifelines: sp.Sig.Lifelines, Messages: sp.Sig.Messages, Locations: lifelinesOf(part)})
//	err = compile.WriteDir("abpverify", "abpverify", files, false) // verifier.go, engine_*.go, verifier_htf.go, ...
package compile
