package compile_test

import (
	"bytes"
	"flag"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/compile"
	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// compiled is a model compiled for one partition: what the generator
// needs, and the in-process engines to compare with.
type compiled struct {
	sp   *spec.Spec
	part interaction.Locations
	eng  *automata.Engine
	chk  *nfa.Checker
	cfg  compile.Config
}

// compileModel loads the model in testdata/models/name (or the diagram at
// the path name, a .md file) and compiles it for the partition (discrete,
// trivial or "a,b;c").
func compileModel(t testing.TB, name, partition, pkg string) *compiled {
	t.Helper()
	path := name
	if filepath.Ext(name) != ".md" {
		dir := filepath.Join("testdata", "models", name)
		hsfs, _ := filepath.Glob(filepath.Join(dir, "*.hsf"))
		if len(hsfs) != 1 {
			t.Fatalf("%s: want one .hsf, have %v", dir, hsfs)
		}
		path = hsfs[0]
	}
	sp, err := spec.Load(path, "")
	if err != nil {
		t.Fatal(err)
	}
	part, err := interaction.ParseLocations(sp.Sig, partition)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := automata.New(sp.Store, sp.Root, automata.Options{Mode: verdict.Accept})
	if err != nil {
		t.Fatal(err)
	}
	chk, err := eng.Checker(part)
	if err != nil {
		t.Fatal(err)
	}
	cfg := compile.Config{Package: pkg, Source: filepath.Base(sp.SigPath), Checker: chk,
		Lifelines: sp.Sig.Lifelines, Messages: sp.Sig.Messages,
		LifelineAliases: sp.Sig.LifelineAliases, MessageAliases: sp.Sig.MessageAliases}
	if sp.HIFPath != sp.SigPath {
		cfg.Source += " + " + filepath.Base(sp.HIFPath)
	}
	for _, loc := range part {
		var ls []int
		for l := range loc.All() {
			ls = append(ls, int(l))
		}
		cfg.Locations = append(cfg.Locations, ls)
	}
	return &compiled{sp: sp, part: part, eng: eng, chk: cfg.Checker, cfg: cfg}
}

// archive joins generated files in the txtar format.
func archive(files []compile.Output) []byte {
	var b bytes.Buffer
	for _, f := range files {
		if strings.HasPrefix(f.Name, "engine_") {
			continue // the engine's files: see TestEngineCopy
		}
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(f.Data)
	}
	return b.Bytes()
}

// checkFiles checks what every generated file must be: the header, gofmt's
// format, and imports of the standard library only (the command imports
// the package too).
func checkFiles(t *testing.T, files []compile.Output, importPath string) {
	t.Helper()
	for _, f := range files {
		header := compile.Header
		if name, ok := strings.CutPrefix(f.Name, "engine_"); ok {
			header = compile.EngineHeader(name)
		}
		if !bytes.HasPrefix(f.Data, []byte("// "+header+"\n")) {
			t.Errorf("%s: no header line", f.Name)
		}
		formatted, err := format.Source(f.Data)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if !bytes.Equal(formatted, f.Data) {
			t.Errorf("%s is not gofmt-clean", f.Name)
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path != importPath && strings.Contains(strings.Split(path, "/")[0], ".") {
				t.Errorf("%s imports %s, which is not in the standard library", f.Name, path)
			}
		}
	}
}

// TestEngineCopy checks that the engine's files of a generated package are
// those of package engine, byte for byte, but for the header line and the
// package clause: there is one copy of the engine's algorithms.
func TestEngineCopy(t *testing.T) {
	files, err := compile.EngineFiles("verifier")
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := filepath.Glob(filepath.Join("..", "nfa", "engine", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, path := range onDisk {
		if name := filepath.Base(path); !strings.HasSuffix(name, "_test.go") && name != "source.go" {
			want["engine_"+name] = true
		}
	}
	if len(files) != len(want) {
		t.Errorf("%d engine files copied, want %d (every file of internal/nfa/engine but source.go and the tests): %v", len(files), len(want), want)
	}
	for _, f := range files {
		if !want[f.Name] {
			t.Errorf("%s copied: not a file of internal/nfa/engine", f.Name)
			continue
		}
		name := strings.TrimPrefix(f.Name, "engine_")
		src, err := os.ReadFile(filepath.Join("..", "nfa", "engine", name))
		if err != nil {
			t.Fatal(err)
		}
		header := "// " + compile.EngineHeader(name) + "\n\npackage verifier\n"
		if !bytes.HasPrefix(f.Data, []byte(header)) {
			t.Errorf("%s: does not start with %q", f.Name, header)
			continue
		}
		if got := append([]byte("package engine\n"), f.Data[len(header):]...); !bytes.Equal(got, src) {
			t.Errorf("%s differs from internal/nfa/engine/%s (at line %d)", f.Name, name, firstDiff(got, src))
		}
	}
}

// TestGolden compares the generated source of two small specifications
// with testdata/golden (go test -update rewrites them), and checks that
// generation is deterministic.
func TestGolden(t *testing.T) {
	for _, c := range []struct{ model, partition, pkg string }{
		// Synchronous messages, and multi-actions in the locations.
		{"network-synch", "Proxy,Log;Client;EServer,SupServer", "network"},
		{"platoon2", "discrete", "platoon"},
	} {
		t.Run(c.model, func(t *testing.T) {
			m := compileModel(t, c.model, c.partition, c.pkg)
			m.cfg.Command = "ivc compile " + c.model + " --package " + c.pkg
			m.cfg.Main, m.cfg.ImportPath = true, "example.com/verifiers/"+c.pkg
			files, err := compile.Generate(m.cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkFiles(t, files, m.cfg.ImportPath)
			again, err := compile.Generate(m.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := archive(files)
			if !bytes.Equal(got, archive(again)) {
				t.Errorf("two generations differ")
			}
			golden := filepath.Join("testdata", "golden", c.pkg+".txtar")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("generated source differs from %s (go test -update rewrites it); first difference at line %d", golden, firstDiff(got, want))
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// TestErrors checks the generator's refusals.
func TestErrors(t *testing.T) {
	m := compileModel(t, "platoon2", "discrete", "platoon")
	for _, c := range []struct {
		name string
		edit func(*compile.Config)
		want string
	}{
		{"package", func(c *compile.Config) { c.Package = "no-dash" }, "not a Go identifier"},
		{"main package", func(c *compile.Config) { c.Package = "main" }, "cannot name a library"},
		{"locations", func(c *compile.Config) { c.Locations = c.Locations[:1] }, "1 entries in Locations for a checker of"},
		{"no checker", func(c *compile.Config) { c.Checker = nil }, "no checker"},
		{"command", func(c *compile.Config) { c.Main = true }, "import path"},
		// π is a Go identifier, but cmd/πcheck no import path element.
		{"command name", func(c *compile.Config) { c.Package, c.Main, c.ImportPath = "π", true, "example.com/p" },
			"the command's directory cmd/πcheck is no valid import path element"},
		{"import path", func(c *compile.Config) { c.Main, c.ImportPath = true, "example.com/a b" }, "the package's import path"},
	} {
		cfg := m.cfg
		c.edit(&cfg)
		if _, err := compile.Generate(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestHostileFileName: a spec's file name, which the generated comments
// show, cannot end a comment: a newline followed by a build constraint
// or "*/" leaves every file of the package parsed as Go and built.
func TestHostileFileName(t *testing.T) {
	m := compileModel(t, "platoon2", "discrete", "platoon")
	const name = "x\n//go:build ignore\n// +build ignore\n*/ package x; */\u2028y.hsf"
	m.cfg.Source = name + " + y.hif"
	m.cfg.Command = "ivc compile " + name + " --package platoon"
	m.cfg.Main, m.cfg.ImportPath = true, "example.com/verifiers/platoon"
	files, err := compile.Generate(m.cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, files, m.cfg.ImportPath)
	dir := t.TempDir()
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		ok, err := build.Default.MatchFile(filepath.Dir(path), filepath.Base(path))
		if err != nil || !ok {
			t.Errorf("%s is not built (%v)", f.Name, err)
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.Name.Name != "platoon" && ast.Name.Name != "main" {
			t.Errorf("%s: package %s", f.Name, ast.Name.Name)
		}
		if bytes.Contains(f.Data, []byte("\n//go:build")) || bytes.Contains(f.Data, []byte("\n// +build")) {
			t.Errorf("%s: a build constraint from the file name", f.Name)
		}
	}
}
