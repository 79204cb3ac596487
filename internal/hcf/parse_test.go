package hcf

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/syntax"
)

// spelling is a declaration as some HIBOU version spells it, and its modern
// form ("" when the declaration gives nothing).
type spelling struct{ section, src, want string }

func (tc spelling) source() string { return "@" + tc.section + "_option{ " + tc.src + " }" }

var spellings = []spelling{
	// Booleans.
	{"analyze", "memoize = True", "memoize = true"},
	{"analyze", "memoize = TRUE", "memoize = true"},
	{"analyze", "memoize = ⊤", "memoize = true"},
	{"analyze", "memoize = False", "memoize = false"},
	{"analyze", "memoize = FALSE", "memoize = false"},
	{"analyze", "memoize = ⊥", "memoize = false"},
	// Strategies.
	{"analyze", "strategy = BreadthFS", "strategy = BFS"},
	{"analyze", "strategy = Breadth First Search", "strategy = BFS"},
	{"analyze", "strategy = DepthFS", "strategy = DFS"},
	{"analyze", "strategy = Depth  /* sic */ First\nSearch", "strategy = DFS; /* sic */"},
	{"analyze", "strategy = HighCoverageS", "strategy = HCS"},
	{"analyze", "strategy = High Coverage Search", "strategy = HCS"},
	{"explore", "strategy = GreedyBestFS", "strategy = GreedyBestFS[step=1]"},
	{"analyze", "strategy = GreedyBestFS[step=0,emission=1,loop=-2]", "strategy = GreedyBestFS[step=0, emission=1, loop=-2]"},
	{"analyze", "strategy = GreedyBestFS[hide=1]", "strategy = GreedyBestFS[step=1, elim=1]"},
	// Goals.
	{"analyze", "goal = none", "goal = None"},
	{"analyze", "goal = NONE", "goal = None"},
	{"analyze", "goal = WeakPass", "goal = WeakPass"},
	// Analysis kinds, analysis_kind and ≤ 0.7 semantics.
	{"analyze", "analysis_kind = hide", "analysis_kind = eliminate"},
	{"analyze", "semantics = prefix", "analysis_kind = prefix"},
	{"analyze", "semantics = accept", "analysis_kind = accept"},
	{"analyze", "semantics = hide", "analysis_kind = eliminate"},
	{"analyze", "analysis_kind = simulate",
		"analysis_kind = simulate[slice=false, reset=false, multiply=false, loop max_depth, act none]"},
	{"analyze", "semantics = simulate[multi-prefix]",
		"analysis_kind = simulate[slice=false, reset=false, multiply=false, loop max_depth, act none]"},
	{"analyze", "semantics = simulate[multi-slice]",
		"analysis_kind = simulate[slice=true, reset=false, multiply=false, loop max_depth, act none]"},
	{"analyze", "analysis_kind = simulate[before = true, loop max depth, reset = true, multiply = false, act num = 10]",
		"analysis_kind = simulate[slice=true, reset=true, multiply=false, loop max_depth, act num=10]"},
	{"analyze", "analysis_kind = simulate[preamble=⊤, resized=TRUE, reinitialize=True, loop num=3, act max num,]",
		"analysis_kind = simulate[slice=true, reset=true, multiply=true, loop num=3, act max_num]"},
	{"analyze", "analysis_kind = simulate[slice, loop maxnum, act maxnum]", // HIBOU 0.8.0
		"analysis_kind = simulate[slice=true, reset=false, multiply=false, loop max_num, act max_num]"},
	{"analyze", "analysis_kind = simulate[dependent=true, loop none, act None]",
		"analysis_kind = simulate[slice=false, reset=false, multiply=true, loop none, act none]"},
	{"analyze", "analysis_kind = simulate[]",
		"analysis_kind = simulate[slice=false, reset=false, multiply=false, loop max_depth, act none]"},
	// Local analyses.
	{"analyze", "local_analysis = true", "local_analysis = [select=dirty, max_look_ahead_depth=none, modulo=1]"},
	{"analyze", "local_analysis = false", "local_analysis = none"},
	{"analyze", "local_analysis = None", "local_analysis = none"},
	{"analyze", "use_locfront = true", "local_analysis = [select=dirty, max_look_ahead_depth=none, modulo=1]"},
	{"analyze", "use_locfront = false", "local_analysis = none"},
	{"analyze", "local_analysis = [select=ALL, lookahead=3]", "local_analysis = [select=all, max_look_ahead_depth=3, modulo=1]"},
	{"analyze", "local_analysis = [max depth = 2, modulo_each_X_steps = 4]", "local_analysis = [select=dirty, max_look_ahead_depth=2, modulo=4]"},
	{"analyze", "local_analysis = [lookup = NONE, select = Dirty]", "local_analysis = [select=dirty, max_look_ahead_depth=none, modulo=1]"},
	{"analyze", "local_analysis = [max_depth=0]", "local_analysis = [select=dirty, max_look_ahead_depth=0, modulo=1]"},
	// Partial order reduction.
	{"analyze", "por = true", "partial_order_reduction = true"},
	{"analyze", "POR = false", "partial_order_reduction = false"},
	// Filters.
	{"explore", "pre_filters = [max_depth = 3, max_loop_depth = 1, max_node_number = 7]",
		"filters = [max_depth=3, max_loop_depth=1, max_node_number=7]"},
	{"explore", "filters = [max node number = 241, max depth = 24,]", "filters = [max_depth=24, max_node_number=241]"},
	{"explore", "filters = [max loop depth = 0]", "filters = [max_loop_depth=0]"},
	{"explore", "filters = []", ""},
	// Priorities.
	{"analyze", "frontier_priorities = [reception=1]", "priorities = [reception=1]"},
	{"analyze", "priorities = random", "priorities = [randomize=true]"},
	{"explore", "priorities = rand", "priorities = [randomize=true]"},
	{"analyze", "priorities = [simu = -1, hide = - 2, emission = 0]", "priorities = [elim=-2, simu=-1]"},
	{"explore", "priorities = [randomize=true, multi_rdv=3, loop=-1]", "priorities = [loop=-1, multi_rdv=3, randomize=true]"},
	{"explore", "priorities = [emission=0]", "priorities = [randomize=false]"},
	{"canonize", "priorities = [simpl=1, defactorize=-1]", "priorities = [simpl=1, defactorize=-1]"},
	// Loggers.
	{"analyze", "loggers = [graphic]", "loggers = [graphic]"},
	{"analyze", "loggers = [graphic = svg]", "loggers = [graphic[svg]]"},
	{"analyze", "loggers = [graphic[svg,vertical]]", "loggers = [graphic[svg, vertical]]"},
	{"explore", "loggers = [graphic[format=png, layout=horizontal, draw_sd=false, draw_tt=⊤, draw_sub_processes=False, draw_legend=TRUE, parent_folder=out, name=g1]]",
		"loggers = [graphic[png, horizontal, draw_sd=false, draw_tt=true, draw_sub_processes=false, draw_legend=true, parent=out, output=g1]]"},
	{"explore", "loggers = [tracegen[terminal,partition=discrete]]", "loggers = [tracegen[generation=terminal, partition=discrete]]"},
	{"explore", "loggers = [tracegen[exact, partition=trivial]]", "loggers = [tracegen[generation=accepted, partition=trivial]]"},
	{"explore", "loggers = [tracegen[prefix, prefix = tr]]", "loggers = [tracegen[generation=prefix, prefix=tr]]"},
	{"explore", "loggers = [tracegen[generation=modulo depth 1,\n partition=discrete]]", "loggers = [tracegen[generation=modulo depth 1, partition=discrete]]"},
	{"explore", "loggers = [tracegen[generation = exact depth 5, partition = {(l1,l2),(l3)}, folder = f, trace_prefix = p, no_duplicates = true]]",
		"loggers = [tracegen[generation=exact depth 5, partition={(l1,l2),(l3)}, folder=f, prefix=p, no_duplicates=true]]"},
	{"explore", `loggers = [tracegen[partition={("api-gateway",l1),("a\\b")}]]`, `loggers = [tracegen[partition={("api-gateway",l1),("a\\b")}]]`},
	{"explore", `loggers = [tracegen[partition={("l1",l2)}]]`, `loggers = [tracegen[partition={(l1,l2)}]]`},
	{"explore", "loggers = [nfait, tracegen, graphic[png]]", "loggers = [nfa, tracegen, graphic[png]]"},
	{"explore", "loggers = []", "loggers = []"},
	// Canonization.
	{"canonize", "search_all", "search_all = true"},
	{"canonize", "search_all = ⊥", "search_all = false"},
}

// Each source, whatever HIBOU version it is written for, formats to the
// declaration in today's spelling.
func TestSpellings(t *testing.T) {
	for _, tc := range spellings {
		src := tc.source()
		f, err := Parse("spelling.hcf", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got := strings.TrimSpace(string(Format(f)))
		want := "@" + tc.section + "_option{\n}"
		if tc.want != "" {
			want = "@" + tc.section + "_option{\n\t" + tc.want + ";\n}"
		}
		if strings.Contains(tc.want, ";") { // a comment after the option
			want = "@" + tc.section + "_option{\n\t" + tc.want + "\n}"
		}
		if got != want {
			t.Errorf("%s\n got %q\nwant %q", src, got, want)
		}
		checkRoundTrip(t, src, f)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // "line:col: message"
	}{
		{"@analyze_option{ strategy = XFS }",
			`1:29: expected a strategy (BFS, DFS or HCS), found name "XFS"`},
		{"@analyze_option{\n\tstrategy = DFS;\n\tfoo = 1\n}",
			`3:2: unknown option "foo" in @analyze_option (expected loggers, strategy, goal, analysis_kind, local_analysis, partial_order_reduction, memoize, filters or priorities)`},
		{"@explore_option{\n\tanalysis_kind = accept\n}",
			`2:2: option analysis_kind belongs in @analyze_option, not in @explore_option (expected loggers, strategy, memoize, filters or priorities)`},
		{"@canonize_option{ memoize = true }",
			`1:19: option memoize belongs in @analyze_option or @explore_option, not in @canonize_option (expected loggers, strategy, filters, priorities or search_all)`},
		{"@analyze_option{ search_all }",
			`1:18: option search_all belongs in @canonize_option, not in @analyze_option (expected loggers, strategy, goal, analysis_kind, local_analysis, partial_order_reduction, memoize, filters or priorities)`},
		{"@analyze_option{\n\tgoal = Pass;\n\tgoal = WeakPass\n}",
			`3:2: option goal given twice (first at 2:2)`},
		{"@analyze_option{\n\tanalysis_kind = prefix;\n\tsemantics = accept\n}",
			`3:2: option semantics given twice (first as analysis_kind at 2:2)`},
		{"@analyze_option{ goal = Pass }\n@analyze_option{ goal = Pass }",
			`2:1: @analyze_option given twice (first at 1:1)`},
		{"@message{ m }",
			`1:2: unknown section @message (expected @analyze_option, @explore_option or @canonize_option)`},
		{"strategy = DFS",
			`1:1: expected '@' to start an option section (@analyze_option, @explore_option or @canonize_option), found name "strategy"`},
		{"@analyze_option strategy = DFS }",
			`1:17: expected '{' after @analyze_option, found name "strategy"`},
		{"@analyze_option{ strategy = DFS",
			`1:32: expected ';' or '}' after an option of @analyze_option, found end of file`},
		{"@analyze_option{ strategy = DFS; ",
			`1:34: expected an option name (loggers, strategy, goal, analysis_kind, local_analysis, partial_order_reduction, memoize, filters or priorities), found end of file`},
		{"@analyze_option{ strategy = DFS goal = Pass }",
			`1:33: expected ';' or '}' after an option of @analyze_option, found name "goal"`},
		{"@analyze_option{ strategy DFS }",
			`1:27: expected '=' after strategy, found name "DFS"`},
		{"@analyze_option{ strategy = Depth First }",
			`1:41: expected "Search" in "Depth First Search", found '}'`},
		{"@analyze_option{ memoize = yes }",
			`1:28: expected true or false for memoize, found name "yes"`},
		{"@analyze_option{ goal = Fail }",
			`1:25: expected a goal (Pass, WeakPass or None), found name "Fail"`},
		{"@analyze_option{ analysis_kind = slice }",
			`1:34: expected an analysis kind (accept, prefix, eliminate or simulate[...]), found name "slice"`},
		{"@analyze_option{ analysis_kind = simulate[loop max_num, act max_depth] }",
			`1:61: expected num=N, max_num or none after act, found name "max_depth"`},
		{"@analyze_option{ analysis_kind = simulate[reset = true, reinitialize = false] }",
			`1:57: reset given twice (first at 1:43)`},
		{"@analyze_option{ analysis_kind = simulate[slice=true; loop none] }",
			`1:53: expected ',' or ']' in simulate[...], found ';'`},
		{"@analyze_option{ analysis_kind = simulate[multi-suffix] }",
			`1:49: expected prefix or slice after multi-, found name "suffix"`},
		{"@analyze_option{ analysis_kind = simulate[loop num = -1] }",
			`1:54: expected a non-negative integer for num, found number -1`},
		{"@analyze_option{ local_analysis = [select=some] }",
			`1:43: expected all or dirty for select, found name "some"`},
		{"@analyze_option{ local_analysis = [lookahead = 2, max depth = 3] }",
			`1:51: max_look_ahead_depth given twice (first at 1:36)`},
		{"@analyze_option{ local_analysis = [depth = 2] }",
			`1:36: expected a local analysis parameter (select, max_look_ahead_depth or modulo), found name "depth"`},
		{"@analyze_option{ local_analysis = maybe }",
			`1:35: expected none or [select=..., max_look_ahead_depth=..., modulo=...] for local_analysis, found name "maybe"`},
		{"@analyze_option{ local_analysis = [lookahead = all] }",
			`1:48: expected none or a non-negative integer for lookahead, found name "all"`},
		{"@explore_option{ filters = [max_depth = 3, max depth = 4] }",
			`1:44: filter max_depth given twice`},
		{"@explore_option{ filters = [min_depth = 3] }",
			`1:29: expected a filter (max_depth, max_loop_depth or max_node_number), found name "min_depth"`},
		{"@canonize_option{ filters = [max_loop_depth = 3] }",
			`1:30: filter max_loop_depth does not apply to @canonize_option (expected max_depth or max_node_number)`},
		{"@explore_option{ filters = [max_depth = 99999999999] }",
			`1:41: 99999999999 is too large for max_depth (at most 2147483647)`},
		{"@explore_option{ filters = [max_depth = 1.5] }",
			`1:42: expected ',' or ']' in filters = [...], found '.'`},
		{"@explore_option{ priorities = [elim = 1] }",
			`1:32: priority elim does not apply to @explore_option (expected emission, reception, loop, multi_rdv or randomize)`},
		{"@canonize_option{ priorities = [emission = 1] }",
			`1:33: priority emission does not apply to @canonize_option (expected simpl, flush, invert, deduplicate, factorize, defactorize or randomize)`},
		{"@analyze_option{ priorities = [speed = 1] }",
			`1:32: expected a priority (emission, reception, loop, multi_rdv, elim, simu or randomize), found name "speed"`},
		{"@analyze_option{ priorities = [hide = 1, elim = 2] }",
			`1:42: elim given twice (first at 1:32)`},
		{"@analyze_option{ priorities = [emission = - -1] }",
			`1:45: expected a non-negative integer for emission, found number -1`},
		{"@analyze_option{ priorities = fast }",
			`1:31: expected [kind=level, ..., randomize=B] for priorities, found name "fast"`},
		{"@analyze_option{ strategy = GreedyBestFS[randomize = true] }",
			`1:42: expected a priority (emission, reception, loop, multi_rdv, elim or simu), found name "randomize"`},
		{"@canonize_option{ strategy = GreedyBestFS }",
			`1:30: strategy GreedyBestFS (HIBOU ≤ 0.7) does not apply to @canonize_option (expected BFS, DFS or HCS)`},
		{"@analyze_option{ loggers = [nfa] }",
			`1:29: logger nfa applies to @explore_option only (expected graphic or tracegen)`},
		{"@canonize_option{ loggers = [tracegen] }",
			`1:30: logger tracegen does not apply to @canonize_option (expected graphic)`},
		{"@explore_option{ loggers = [printer] }",
			`1:29: expected a logger (graphic, tracegen or nfa), found name "printer"`},
		{"@explore_option{ loggers = [graphic[svg, png]] }",
			`1:42: format given twice (first at 1:37)`},
		{"@explore_option{ loggers = [graphic[format = jpg]] }",
			`1:46: expected svg or png for the graphic format, found name "jpg"`},
		{"@explore_option{ loggers = [graphic[colour = red]] }",
			`1:37: expected a graphic logger parameter (svg, png, vertical, horizontal, draw_sd, draw_tt, draw_sub_processes, draw_legend, parent or output), found name "colour"`},
		{"@explore_option{ loggers = [tracegen[generation = all]] }",
			`1:51: expected a generation (terminal, accepted, exact depth N or modulo depth N), found name "all"`},
		{"@explore_option{ loggers = [tracegen[terminal, generation = accepted]] }",
			`1:48: generation given twice (first at 1:38)`},
		{"@explore_option{ loggers = [tracegen[partition = {(a,b),(b)}]] }",
			`1:58: lifeline b is in two locations of the partition (first at 1:54)`},
		{"@explore_option{ loggers = [tracegen[partition = {()}]] }",
			`1:52: expected a lifeline name in the partition, found ')'`},
		{"@explore_option{ loggers = [tracegen[folder = 3]] }",
			`1:47: expected a name for folder, found number 3`},
		{"@analyze_option{ goal = Pass /* unterminated }",
			`1:30: comment not terminated: missing '*/'`},
		{"@analyze_option{ goal = Pass } $",
			`1:32: unexpected character '$'`},
		// A bad byte in a section name or an option is reported as such,
		// not as an unknown name cut short.
		{"@analyze\x00_option{ goal = Pass }",
			`1:9: unexpected control character U+0000`},
		{"@analyze_option{ go\xffal = Pass }",
			`1:20: invalid UTF-8 byte 0xff: not a text file?`},
		{"\ufeff@analyze_option{ goal = Pass } \ufeff",
			`1:32: unexpected character '\ufeff'`},
	} {
		_, err := Parse("bad.hcf", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: no error, want %s", tc.src, tc.want)
			continue
		}
		if _, ok := err.(*syntax.Error); !ok {
			t.Errorf("%s: error %T, want *syntax.Error", tc.src, err)
		}
		if got := err.Error(); got != "bad.hcf:"+tc.want {
			t.Errorf("%s\n got %s\nwant bad.hcf:%s", tc.src, got, tc.want)
		}
	}
}

// Legacy .hsf files embed sections among other text; ParseSection parses one
// and reports positions in the enclosing file.
func TestParseSection(t *testing.T) {
	src := []byte("@message{m1}\n@lifeline{l1;l2}\n@explore_option{\n    strategy = DepthFS;\n    filters = [ max_depth = 2 ]\n}\nseq(l1 -- m1 -> l2, o)")
	at := syntax.Pos{Offset: 30, Line: 3, Col: 1}
	sec, err := ParseSection("x.hsf", src, at)
	if err != nil {
		t.Fatal(err)
	}
	if sec.Kind != Explore || sec.Pos != at || sec.Options.Strategy != DFS || sec.Options.Filters.MaxDepth != 2 {
		t.Errorf("got %+v", sec)
	}
	if want := (syntax.Pos{Offset: 104, Line: 6, Col: 2}); sec.End != want || src[sec.End.Offset-1] != '}' {
		t.Errorf("End = %v (offset %d), want %v", sec.End, sec.End.Offset, want)
	}

	bad := []byte("@message{m1}\n@analyze_option{\n    strategy = DepthFS;\n    hiding = true\n}\n")
	_, err = ParseSection("y.hsf", bad, syntax.Pos{Offset: 13, Line: 2, Col: 1})
	if err == nil || !strings.HasPrefix(err.Error(), `y.hsf:4:5: unknown option "hiding"`) {
		t.Errorf("error %v, want one at y.hsf:4:5", err)
	}
	for _, at := range []syntax.Pos{{Offset: -1, Line: 1, Col: 1}, {Offset: len(bad) + 1, Line: 1, Col: 1}, {Offset: 0}} {
		if _, err := ParseSection("y.hsf", bad, at); err == nil {
			t.Errorf("position %+v: no error", at)
		}
	}
	if _, err := ParseSection("y.hsf", bad, syntax.Pos{Offset: 0, Line: 1, Col: 1}); err == nil ||
		!strings.Contains(err.Error(), "unknown section @message") {
		t.Errorf("at @message: error %v", err)
	}
}

// TestEmptyAndSections: a .hcf without sections (empty, or only comments)
// is valid and sets no option, as the package documentation says; unlike
// an empty .htf, which is an error.
func TestEmptyAndSections(t *testing.T) {
	for _, src := range []string{"", "\ufeff"} {
		f, err := Parse("empty.hcf", []byte(src))
		if err != nil || len(f.Sections) != 0 || len(Format(f)) != 0 {
			t.Errorf("empty file %q: %v, %+v", src, err, f)
		}
	}
	f, err := Parse("comment.hcf", []byte(" /* nothing */ \n"))
	if err != nil || len(f.Sections) != 0 || string(Format(f)) != "/* nothing */\n" {
		t.Errorf("a file of a comment: %v, %+v", err, f)
	}
	f, err = Parse("bom.hcf", []byte("\ufeff@analyze_option{ goal = Pass }"))
	if err != nil || len(f.Sections) != 1 || f.Sections[0].Pos.Col != 1 {
		t.Errorf("a file with a byte order mark: %v, %+v", err, f)
	}
	src := "@canonize_option{search_all;}@explore_option{memoize=false}@analyze_option{}"
	f, err = Parse("three.hcf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "@canonize_option{\n\tsearch_all = true;\n}\n\n@explore_option{\n\tmemoize = false;\n}\n\n@analyze_option{\n}\n"
	if got := string(Format(f)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if f.Section(Explore) == nil || f.Section(Explore).Options.Set != KeyMemoize || f.Section(Analyze).Options.Set != 0 {
		t.Errorf("sections: %+v", f.Sections)
	}
	checkRoundTrip(t, "three.hcf", f)
}

func TestKeyString(t *testing.T) {
	if got := (KeyStrategy | KeyMaxDepth).String(); got != "strategy|max_depth" {
		t.Errorf("got %q", got)
	}
	if got := Key(0).String(); got != "none" {
		t.Errorf("got %q", got)
	}
}

// The option sections of the partial-observation paper (JOT, Figs. 17-18,
// HIBOU 0.8.4), as notes-partial-observation.md §6 transcribes them.
func TestPaperFigures(t *testing.T) {
	src := `@explore_option{
    loggers = [graphic[svg], tracegen[generation = exact, partition = {(l1,l2),(l3)}]];
    strategy = BFS;
    filters = [max_depth = 35, max_loop_depth = 4, max_node_number = 250];
    priorities = random
}
@analyze_option{
    loggers = [graphic[svg]];
    analysis_kind = simulate[before = true, loop max depth, reset = true, multiply = false, act num = 10];
    strategy = DFS;
    priorities = [simu = -1];
    goal = WeakPass
}`
	want := `@explore_option{
	loggers = [graphic[svg], tracegen[generation=accepted, partition={(l1,l2),(l3)}]];
	strategy = BFS;
	filters = [max_depth=35, max_loop_depth=4, max_node_number=250];
	priorities = [randomize=true];
}

@analyze_option{
	loggers = [graphic[svg]];
	strategy = DFS;
	goal = WeakPass;
	analysis_kind = simulate[slice=true, reset=true, multiply=false, loop max_depth, act num=10];
	priorities = [simu=-1];
}
`
	f, err := Parse("fig.hcf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Format(f)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	sim := f.Section(Analyze).Options.Analysis.Simulate
	if want := (HibouSimulation{Slice: true, Reset: true, Loop: HibouBudget{Kind: BudgetMaxDepth}, Act: HibouBudget{Kind: BudgetNum, N: 10}}); sim != want {
		t.Errorf("simulation %+v, want %+v", sim, want)
	}
}
