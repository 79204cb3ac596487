package hcf

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/internal/testutil"
)

// optionSections parses the option sections of a legacy single-file .hsf,
// wherever they are among its signature sections.
func optionSections(file string, src []byte) ([]*Section, error) {
	var secs []*Section
	s := scan.New(file, src)
	for t := s.Next(); t.Kind != scan.EOF; t = s.Next() {
		if t.Is("@") && strings.HasSuffix(s.Peek().Text, "_option") {
			sec, err := ParseSection(file, src, t.Pos)
			if err != nil {
				return nil, err
			}
			secs = append(secs, sec)
			s = scan.NewAt(file, src, sec.End)
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return secs, nil
}

// checkRoundTrip requires Parse(Format(f)) to give f's values back, and
// Format to be a fixed point.
func checkRoundTrip(t *testing.T, name string, f *File) {
	t.Helper()
	out := Format(f)
	g, err := Parse(name+" (formatted)", out)
	if err != nil {
		t.Fatalf("%s: formatted text does not parse: %v\n%s", name, err, out)
	}
	if len(g.Sections) != len(f.Sections) {
		t.Fatalf("%s: %d sections after round trip, want %d", name, len(g.Sections), len(f.Sections))
	}
	for i, s := range f.Sections {
		if g.Sections[i].Kind != s.Kind || !reflect.DeepEqual(g.Sections[i].Options, s.Options) {
			t.Errorf("%s: @%s changed in the round trip:\n got %+v\nwant %+v\n%s", name, s.Kind, g.Sections[i].Options, s.Options, out)
		}
	}
	if again := Format(g); !bytes.Equal(again, out) {
		t.Errorf("%s: Format is not a fixed point:\n%s\nthen\n%s", name, out, again)
	}
}

// checkTree parses every .hcf and every option section of a .hsf under root.
func checkTree(t *testing.T, root string) {
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var f *File
		switch filepath.Ext(path) {
		case ".hcf":
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if f, err = Parse(path, src); err != nil {
				t.Errorf("%v", err)
				return nil
			}
			if len(f.Sections) == 0 {
				t.Errorf("%s: no section found", path)
			}
		case ".hsf":
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if !bytes.Contains(src, []byte("_option")) {
				return nil
			}
			secs, err := optionSections(path, src)
			if err != nil {
				t.Errorf("%v", err)
				return nil
			}
			if len(secs) == 0 {
				t.Errorf("%s: mentions an option section, none found", path)
			}
			f = &File{Sections: secs}
		default:
			return nil
		}
		n++
		checkRoundTrip(t, path, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no option file under %s", root)
	}
	t.Logf("%d files with option sections under %s", n, root)
}

func TestTestdata(t *testing.T) { checkTree(t, "testdata") }

// TestSharedCorpus checks the HIBOU experiments' files (testdata has copies
// of their option files, so that the tests also run without the corpus).
func TestSharedCorpus(t *testing.T) {
	checkTree(t, filepath.Join(testutil.Shared(t), "corpus"))
}

func parseFile(t *testing.T, path string) *File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".hsf") {
		secs, err := optionSections(path, src)
		if err != nil {
			t.Fatal(err)
		}
		return &File{Sections: secs}
	}
	f, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The four configurations of the lifeline-removal benchmark.
func TestLfremConfigs(t *testing.T) {
	base := Options{
		Set: KeyStrategy | KeyGoal | KeyAnalysisKind | KeyLocalAnalysis |
			KeyPartialOrderReduction | KeyMemoize,
		Strategy: DFS,
		Goal:     GoalWeakPass,
		Analysis: Analysis{Kind: Eliminate},
		Memoize:  true,
	}
	loc := LocalAnalysis{Enabled: true, Select: SelectDirty, MaxLookAhead: Unbounded, Modulo: 1}
	for _, tc := range []struct {
		file     string
		por, loc bool
	}{
		{"conf_time_nopor_noloc.hcf", false, false},
		{"conf_time_nopor_wtloc.hcf", false, true},
		{"conf_time_wtpor_noloc.hcf", true, false},
		{"conf_time_wtpor_wtloc.hcf", true, true},
	} {
		f := parseFile(t, filepath.Join("testdata", "lfrem", tc.file))
		if len(f.Sections) != 1 || f.Section(Analyze) == nil {
			t.Fatalf("%s: want one @analyze_option, got %d sections", tc.file, len(f.Sections))
		}
		want := base
		want.PartialOrderReduction = tc.por
		if tc.loc {
			want.LocalAnalysis = loc
		}
		if got := f.Section(Analyze).Options; !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, got, want)
		}
	}
}

// Values of the legacy (HIBOU 0.7) sections in testdata.
func TestLegacyValues(t *testing.T) {
	graphic := func(f ImageFormat, l Layout) []Logger {
		return []Logger{{Kind: Graphic, Graphic: GraphicLogger{Format: f, Layout: l}}}
	}
	var reception Priorities
	reception.Level[Reception] = 1
	var step Priorities
	step.Level[Step] = 1
	for _, tc := range []struct {
		file string
		kind Kind
		want Options
	}{
		{"example_for_analysis.hsf", Analyze, Options{
			Set:      KeyLoggers | KeyAnalysisKind | KeyStrategy | KeyLocalAnalysis | KeyGoal,
			Loggers:  graphic(SVG, Vertical),
			Strategy: DFS, Analysis: Analysis{Kind: Prefix}, Goal: GoalPass,
		}},
		{"example_locfront_true.hsf", Analyze, Options{
			Set:      KeyStrategy | KeyLoggers | KeyAnalysisKind | KeyLocalAnalysis,
			Strategy: DFS, Loggers: graphic(SVG, 0), Analysis: Analysis{Kind: Prefix},
			LocalAnalysis: DefaultLocalAnalysis,
		}},
		{"example_priority_bfs.hsf", Analyze, Options{
			Set:      KeyLoggers | KeyAnalysisKind | KeyStrategy | KeyLocalAnalysis | KeyGoal | KeyPriorities,
			Loggers:  graphic(SVG, Vertical),
			Strategy: BFS, Analysis: Analysis{Kind: Accept}, Goal: GoalPass, Priorities: reception,
		}},
		{"example_priority_gfs.hsf", Analyze, Options{
			Set:      KeyLoggers | KeyAnalysisKind | KeyStrategy | KeyLocalAnalysis | KeyGoal,
			Loggers:  graphic(SVG, Vertical),
			Strategy: GreedyBestFS, GreedyPriorities: step, Analysis: Analysis{Kind: Accept}, Goal: GoalPass,
		}},
		{"example_for_exploration_1.hsf", Explore, Options{
			Set:      KeyStrategy | KeyLoggers | KeyMaxDepth | KeyMaxLoopDepth | KeyMaxNodeNumber,
			Strategy: DFS, Loggers: graphic(SVG, 0),
			Filters: Filters{MaxDepth: 3, MaxLoopDepth: 1, MaxNodeNumber: 7},
		}},
		{"readme/loop_withH.hsf", Explore, Options{
			Set:      KeyLoggers | KeyStrategy | KeyMaxDepth,
			Loggers:  graphic(SVG, Vertical),
			Strategy: DFS, Filters: Filters{MaxDepth: 2},
		}},
	} {
		f := parseFile(t, filepath.Join("testdata", "legacy", tc.file))
		sec := f.Section(tc.kind)
		if sec == nil || len(f.Sections) != 1 {
			t.Errorf("%s: want one @%s, got %d sections", tc.file, tc.kind, len(f.Sections))
			continue
		}
		if !reflect.DeepEqual(sec.Options, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, sec.Options, tc.want)
		}
	}
}
