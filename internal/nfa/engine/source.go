// Package engine is the runtime of ivc's compiled path: the local checks
// and the central search of the semi-centralized procedure of "Runtime
// Verification of Interactions Using Automata" (Weil-Kennedy et al.), on
// tables that package nfa builds from an NFA and its projections.
//
// It is the one copy of these algorithms. Package nfa runs it in process;
// package internal/compile copies its files, byte for byte but for the package clause
// and a header naming EngineVersion, into every generated verifier, which
// must import nothing but the standard library (as protobuf's generated
// code names the runtime it needs). So the engine imports only the standard
// library, and its exported names are those of a generated verifier's API:
// Action, Location, Mode, Verdict, Reason, Result, LocalVerifier, Area,
// Checker, Tables.
//
//	t, _ := nfa.NewChecker(a, locs, nfa.CheckerOptions{})   // builds the Tables
//	c, _ := engine.NewChecker(tables, engine.Options{})
//	res := c.Check(mt, engine.Prefix)   // Pass, WeakPass, or Fail with LocalError, InterError, CentralError
//	v := tables.NewLocalVerifier(loc)   // the local check of one location, online
//	v.Step(a); area := v.Area()         // ship the area to a central checker:
//	res, err := c.CheckCentral(areas, mt, engine.Accept)
//
// Its types are its own, for the same reason, where ivc has others of the
// same name:
//   - Mode, Verdict and Reason are named and numbered as package verdict's
//     (verdict's tests check it); package internal/engine/automata
//     (result.go) is the one place that maps them onto verdict's.
//   - Action is a letter of a location's alphabet, as an integer (package
//     nfa calls it Letter). A generated verifier's users read each letter
//     as an action of their protocol (l!m, or the part of a <synch>
//     message that a location sees), hence its name in their API. It is
//     neither interaction.Action (an event l!m of an interaction, packed)
//     nor nfa.Action (that event's lifeline and message as indices, which
//     the code generator reads).
//
// One stage per file: the tables and their preparation (tables.go), the
// local walks and areas (local.go: Defs. 6–8, Algorithm 2), the checks and
// Inter (check.go: Def. 9, Algorithm 3), the central search (search.go: Def.
// 4, Algorithm 1) and its probes (probe.go), the encoding of tables in
// generated source (encode.go).
package engine

import "embed"

// Source holds the engine's files that package internal/compile copies into generated
// verifiers: every file of the package but this one and the tests.
//
//go:embed bits.go check.go encode.go local.go probe.go search.go tables.go types.go
var Source embed.FS
