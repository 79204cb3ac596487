package compile

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/ivc-project/ivc/internal/nfa/engine"
)

// shortestWord returns the symbols of a shortest accepted word of the NFA
// (breadth first, transitions in order), or false when it accepts none.
func (m *model) shortestWord() ([]engine.Symbol, bool) {
	t := m.t
	const none = -1
	via := make([]int, t.NumStates) // the transition that reached each state
	seen := make([]bool, t.NumStates)
	var queue []engine.State
	for _, q := range t.Initial {
		if !seen[q] {
			seen[q], via[q] = true, none
			queue = append(queue, q)
		}
	}
	out := make([][]int, t.NumStates)
	for k, tr := range t.Trans {
		out[tr.Src] = append(out[tr.Src], k)
	}
	for h := 0; h < len(queue); h++ {
		q := queue[h]
		if t.Final[q>>6]&(1<<(q&63)) != 0 {
			var word []engine.Symbol
			for via[q] != none {
				tr := t.Trans[via[q]]
				word = append(word, tr.Sym)
				q = tr.Src
			}
			for i, j := 0, len(word)-1; i < j; i, j = i+1, j-1 {
				word[i], word[j] = word[j], word[i]
			}
			return word, true
		}
		for _, k := range out[q] {
			if d := t.Trans[k].Dst; !seen[d] {
				seen[d], via[d] = true, k
				queue = append(queue, d)
			}
		}
	}
	return nil, false
}

// exampleFile is verifier_example_test.go: examples on a shortest accepted
// word, whose outputs go test checks. It is nil when the automaton accepts
// no word.
func (m *model) exampleFile() *File {
	word, ok := m.shortestWord()
	if !ok {
		return nil
	}
	traces := make([][]string, m.nloc)
	var first []int // the actions of location 0, by id
	for _, x := range word {
		for _, p := range m.t.Parts[x] {
			lm := m.locs[p.Loc]
			traces[p.Loc] = append(traces[p.Loc], m.actions[lm.base+int(p.Action)].name)
			if p.Loc == 0 {
				first = append(first, lm.base+int(p.Action))
			}
		}
	}
	var htf strings.Builder
	htf.WriteString("{\n")
	for i, lm := range m.locs {
		fmt.Fprintf(&htf, "\t%s %s;\n", lm.name, strings.Join(traces[i], "."))
	}
	htf.WriteString("}")
	emptyAccepted := false
	for _, q := range m.t.Initial {
		emptyAccepted = emptyAccepted || m.t.Final[q>>6]&(1<<(q&63)) != 0
	}
	emptyPrefix := "WeakPass"
	if emptyAccepted {
		emptyPrefix = "Pass"
	}

	f := m.newFile()
	f.Comment(fmt.Sprintf("ExampleCheck checks a shortest accepted multi-trace of %s, and the", m.source()))
	f.Comment("empty multi-trace, a multi-prefix of every one.")
	f.Func().Id("ExampleCheck").Params().Block(
		List(Id("mt"), Err()).Op(":=").Id("ParseHTF").Call(Lit("example.htf"), Index().Byte().Call(Lit(htf.String()))),
		If(Err().Op("!=").Nil()).Block(Panic(Err())),
		Qual("fmt", "Println").Call(Id("Check").Call(Op("&").Id("mt"), Id("Accept"))),
		Qual("fmt", "Println").Call(Id("Check").Call(Op("&").Id("mt"), Id("Prefix"))),
		Var().Id("empty").Id("MultiTrace"),
		Qual("fmt", "Println").Call(Id("Check").Call(Op("&").Id("empty"), Id("Prefix"))),
		Comment("Output:"),
		Comment("Pass"),
		Comment("Pass"),
		Comment(emptyPrefix),
	)
	f.Line()

	var acts []Code
	for _, a := range first {
		acts = append(acts, Lit(m.actions[a].name))
	}
	f.Comment(fmt.Sprintf("ExampleLocalVerifier checks the trace of location %s online, and", m.locs[0].name))
	f.Comment("ships its area to the central check.")
	f.Func().Id("ExampleLocalVerifier").Params().Block(
		Id("v").Op(":=").Id("NewLocalVerifier").Call(Lit(0)),
		Var().Id("mt").Id("MultiTrace"),
		For(List(Id("_"), Id("name")).Op(":=").Range().Index().String().Values(acts...)).Block(
			List(Id("a"), Id("ok")).Op(":=").Id("ParseAction").Call(Id("name")),
			If(Op("!").Id("ok").Op("||").Op("!").Id("v").Dot("Step").Call(Id("a"))).Block(
				Qual("fmt", "Println").Call(Lit("unexpected"), Id("name")),
			),
			Id("mt").Index(Lit(0)).Op("=").Append(Id("mt").Index(Lit(0)), Id("a")),
		),
		Qual("fmt", "Println").Call(Id("v").Dot("OK").Call(), Id("v").Dot("Final").Call()),
		Var().Id("areas").Index(Id("NumLocations")).Id("Area"),
		For(Id("l").Op(":=").Range().Id("areas")).Block(
			Id("areas").Index(Id("l")).Op("=").Id("NewLocalVerifier").Call(Id("Location").Call(Id("l"))).Dot("Area").Call(),
		),
		Id("areas").Index(Lit(0)).Op("=").Id("v").Dot("Area").Call(),
		List(Id("res"), Err()).Op(":=").Id("CheckCentral").Call(Op("&").Id("areas"), Op("&").Id("mt"), Id("Prefix")),
		Qual("fmt", "Println").Call(Id("res").Dot("Verdict").Dot("OK").Call(), Err()),
		Comment("Output:"),
		Comment("true "+fmt.Sprint(m.locFinalAfter(first))),
		Comment("true <nil>"),
	)
	return f
}

// locFinalAfter reports whether location 0's DFA ends in a final state
// after reading the actions acts.
func (m *model) locFinalAfter(acts []int) bool {
	p := &m.t.Projs[0]
	q := p.Start
	for _, a := range acts {
		if q < 0 {
			return false
		}
		q = p.Next[int(q)*p.K+a-m.locs[0].base]
	}
	return p.IsFinal(q)
}

// mainFile is the command that checks .htf files and JSON Lines logs.
func (m *model) mainFile() *File {
	p := m.cfg.ImportPath
	f := NewFile("main")
	f.HeaderComment(Header)
	f.PackageComment(fmt.Sprintf("Command %scheck checks .htf multi-traces and JSON Lines event logs against the\ninteraction %s.\n\n", m.cfg.Package, m.source()) +
		"Usage:\n\n\t" + m.cfg.Package + "check [-prefix] FILE...\n\n" +
		"A file named .jsonl or .ndjson (or .jsonl.gz, .ndjson.gz) is an event log,\n" +
		"read with ReadJSONL, each file alone; any other a .htf multi-trace. It prints\n" +
		"one verdict per .htf file and per session of a log, and exits with status 0\n" +
		"when every verdict is Pass or WeakPass, 1 when some is Fail or Inconc, 2 on\n" +
		"a file or a session that cannot be read.")
	// check checks mt and prints the verdict after what (a format and its
	// arguments) names.
	check := func(mt Code, what string, args ...Code) []Code {
		return []Code{
			Id("res").Op(":=").Qual(p, "Check").Call(mt, Id("mode")),
			Qual("fmt", "Printf").Call(append(append([]Code{Lit(what + ": %s\n")}, args...), Id("res"))...),
			If(Op("!").Id("res").Dot("Verdict").Dot("OK").Call().Op("&&").Id("status").Op("==").Lit(0)).Block(
				Id("status").Op("=").Lit(1),
			),
		}
	}
	fail := []Code{
		Qual("fmt", "Fprintln").Call(Qual("os", "Stderr"), Err()),
		Id("status").Op("=").Lit(2),
		Continue(),
	}
	f.Func().Id("isLog").Params(Id("file").String()).Bool().Block(
		Id("name").Op(":=").Qual("strings", "TrimSuffix").Call(Qual("strings", "ToLower").Call(Id("file")), Lit(".gz")),
		Return(Qual("strings", "HasSuffix").Call(Id("name"), Lit(".jsonl")).Op("||").Qual("strings", "HasSuffix").Call(Id("name"), Lit(".ndjson"))),
	)
	f.Line()
	f.Func().Id("main").Params().Block(
		Id("prefix").Op(":=").Qual("flag", "Bool").Call(Lit("prefix"), False(), Lit("accept multi-prefixes of accepted multi-traces (WeakPass)")),
		Qual("flag", "Parse").Call(),
		Id("mode").Op(":=").Qual(p, "Accept"),
		If(Op("*").Id("prefix")).Block(Id("mode").Op("=").Qual(p, "Prefix")),
		Id("status").Op(":=").Lit(0),
		For(List(Id("_"), Id("file")).Op(":=").Range().Qual("flag", "Args").Call()).Block(append([]Code{
			If(Id("isLog").Call(Id("file"))).Block(
				List(Id("sessions"), Err()).Op(":=").Qual(p, "ReadJSONL").Call(Id("file")),
				If(Err().Op("!=").Nil()).Block(fail...),
				For(List(Id("_"), Id("s")).Op(":=").Range().Id("sessions")).Block(append([]Code{
					If(Err().Op(":=").Id("s").Dot("Err"), Err().Op("!=").Nil()).Block(fail...),
				}, check(Op("&").Id("s").Dot("MT"), "%s (session %s)", Id("file"), Id("s").Dot("ID"))...)...),
				Continue(),
			),
			List(Id("mt"), Err()).Op(":=").Qual(p, "ReadHTF").Call(Id("file")),
			If(Err().Op("!=").Nil()).Block(fail...),
		}, check(Op("&").Id("mt"), "%s", Id("file"))...)...),
		Qual("os", "Exit").Call(Id("status")),
	)
	return f
}
