// Package draw turns interactions and multi-traces into pictures that
// engineers read at a glance: UML sequence diagrams in SVG. (The text
// notations that teams keep in their documents, Mermaid and PlantUML, are
// the package diagram's: it reads them back.)
//
//	sp, _ := spec.Load("abp.hsf", "")
//	svg := draw.InteractionSVG(sp.Sig, sp.Syntax, draw.Options{Title: "abp"})
//
// A multi-trace is drawn with its verdict: the interleaving the analysis
// found (check.Checker.Witness) with the arrows of its messages, or, for
// a Fail, the part consumed, where the analysis got stuck and what the
// interaction expected there:
//
//	c, _ := check.New(sp, check.DefaultOptions())
//	res := c.Check(mt)
//	w, _ := c.Witness(mt, res.Mode) // for a Fail: c.Witness(draw.Consumed(mt, res.Explanation), verdict.Prefix)
//	svg := draw.MultiTraceSVG(draw.Run{Sig: sp.Sig, Syntax: sp.Syntax, MT: mt, Result: res, Witness: w}, draw.Options{})
//
// For review, InteractionDOT gives an interaction's operator tree in
// Graphviz DOT, with the message arrows as leaves (what ivc dot --what
// interaction writes).
//
// Drawings are deterministic and self-contained (inline style, no font,
// script or image from elsewhere). Labels are set in a monospace font whose
// advance is known, so that the layout can keep every label clear of the
// others: the width grows with the lifelines, the height with the messages.
package draw
