// Package gen writes the standalone Go verifier of an interaction (what
// `ivc compile` does): a package that checks multi-traces against the
// automata engine's checker for some locations, importing only the
// standard library, with a copy of package nfa/engine's files.
//
//	e, err := automata.New(sp.Store, sp.Root, automata.Options{Mode: runtime.Accept})
//	cfg, err := gen.NewConfig(sp, e, tracegen.Discrete(sp.Sig)) // one location per lifeline
//	cfg.Package = "abpverify"
//	files, err := gen.Generate(cfg) // verifier.go, engine_*.go, verifier_htf.go, ...
package gen
