package testutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The architecture of the module, as docs/architecture.md draws it: for
// each package, the packages of the module it may import, and the modules
// outside the standard library it may use. TestArchitecture checks the
// imports of every package (not of its tests) against it, and that
// docs/architecture.md names every public package.
//
// When a package moves, update its line here and docs/architecture.md
// together. Keep the list a layering: a package only imports packages
// listed above it.
var architecture = []struct {
	pkg     string   // path in the module
	imports []string // packages of the module it may import
	modules []string // modules outside the standard library it may import from
}{
	// Files in: syntax, terms, multi-traces, options and specs.
	{"internal/input", nil, nil},
	{"internal/enum", nil, nil},                 // the name tables of enumerations
	{"internal/hashslots", nil, nil},            // the growth of the open-addressing tables of interaction and rewrite, the hashes of their keys
	{"syntax", []string{"internal/input"}, nil}, // ReadFile, FileError: the errors about a file
	{"internal/scan", []string{"internal/enum", "syntax"}, nil},
	{"internal/atomicfile", nil, nil},
	{"internal/memlimit", nil, nil}, // the memory the process may take; the collector's setting
	{"interaction", []string{"syntax", "internal/scan", "internal/enum", "internal/hashslots"}, nil},
	{"multitrace", []string{"syntax", "internal/scan", "internal/enum", "interaction"}, nil},
	{"internal/hcf", []string{"syntax", "internal/scan", "internal/enum", "interaction"}, nil},
	// Mermaid and PlantUML sequence diagrams, read as interactions and written back.
	{"internal/diagram", []string{"syntax", "internal/scan", "interaction"}, nil},
	{"spec", []string{"syntax", "internal/scan", "interaction", "multitrace", "internal/hcf", "internal/diagram"}, nil},
	{"internal/pretty", []string{"syntax", "interaction", "multitrace", "internal/hcf", "spec"}, nil}, // ivc fmt: every kind of file
	// The readers of logs, then what turns their events into sessions.
	// klauspost/compress: zstd, which the Collector's file exporter writes;
	// protobuf's protowire: OTLP/protobuf read from its bytes.
	{"logs", []string{"syntax", "internal/input", "internal/enum", "internal/hashslots", "interaction", "multitrace"},
		[]string{"github.com/valyala/fastjson", "go.opentelemetry.io/collector/pdata", "github.com/klauspost/compress",
			"google.golang.org/protobuf/encoding/protowire"}},
	{"session", []string{"syntax", "internal/input", "internal/enum", "internal/hashslots", "interaction", "multitrace", "logs"},
		// x/sys: spill files without a name (O_TMPFILE) on Linux.
		[]string{"golang.org/x/sys/unix"}},
	// The trace generator of ivc gen, and its writer of logs (OTLP by pdata).
	{"internal/gen", []string{"syntax", "internal/scan", "internal/enum", "internal/hashslots", "interaction", "multitrace", "logs"},
		[]string{"go.opentelemetry.io/collector/pdata"}},
	// The engines. internal/nfa/engine is the standard library only:
	// internal/compile copies its files into every generated package.
	{"verdict", []string{"internal/enum"}, nil},
	// The repairs of failing multi-traces: their edits, and the bounded
	// search over edits with any engine as the judge.
	{"internal/repair", []string{"interaction", "multitrace", "verdict"}, nil},
	{"internal/nfa/engine", nil, nil},
	{"internal/nfa", []string{"internal/nfa/engine"}, []string{"github.com/emicklei/dot"}},
	{"internal/synth", []string{"interaction", "internal/nfa"}, nil},
	// The verdicts an engine decided, by multi-trace: both engines' memo.
	{"internal/engine/memo", []string{"internal/hashslots", "verdict"}, nil},
	{"internal/engine/automata", []string{"interaction", "multitrace", "verdict", "internal/repair", "internal/nfa", "internal/synth", "internal/engine/memo"}, nil},
	{"internal/engine/rewrite", []string{"internal/enum", "internal/hashslots", "interaction", "multitrace", "verdict", "internal/engine/memo"}, nil},
	// internal/compile is fed by internal/nfa's tables and typed letters:
	// nothing above internal/nfa.
	{"internal/compile", []string{"syntax", "internal/atomicfile", "internal/nfa/engine", "internal/nfa"},
		[]string{"github.com/dave/jennifer", "golang.org/x/mod"}},
	// The front door, and what prints its results.
	// Its judging pipeline takes sessions, and gives outcomes, records and
	// the summary of a run.
	{"check", []string{"internal/memlimit", "syntax", "internal/enum", "interaction", "multitrace", "internal/hcf", "spec", "logs", "session", "verdict", "internal/repair", "internal/nfa", "internal/synth", "internal/engine/automata", "internal/engine/rewrite"}, nil},
	{"internal/draw", []string{"interaction", "multitrace", "verdict", "check"}, []string{"github.com/emicklei/dot"}},
	{"internal/report", nil, nil},
	// ivc infer: drafts of interactions from sessions, written as diagrams
	// or HIBOU files and checked through check before they are written.
	{"internal/infer", []string{"syntax", "interaction", "multitrace", "spec", "internal/diagram", "logs", "session", "verdict", "check"}, nil},
	// Live verification in parts, as the Collector's components are: the
	// session table, fed OTLP requests (their bytes, or pdata traces) and
	// log streams and judged through
	// check (failed early by the automata engine's local checks, which
	// check.Walker offers); the receivers, which only decode and hand on
	// to a consumer (the table), and import no engine. The table holds
	// the events' actions and messages (interaction) in its own form.
	{"monitor", []string{"interaction", "check", "logs", "session", "verdict"}, []string{"go.opentelemetry.io/collector/pdata"}},
	{"internal/receiver", []string{"syntax", "internal/input", "logs"},
		[]string{"go.opentelemetry.io/collector/pdata", "google.golang.org/grpc", "google.golang.org/genproto/googleapis/rpc",
			"google.golang.org/protobuf", "golang.org/x/net/netutil"}},
	// The driver: flags, wiring and printing (ivc monitor's metrics as
	// Prometheus collectors).
	{"cmd/ivc", []string{"internal/memlimit", "syntax", "internal/input", "internal/atomicfile", "interaction", "internal/diagram", "multitrace", "spec", "internal/pretty", "logs", "session",
		"internal/gen", "verdict", "internal/nfa", "internal/synth", "internal/compile", "check", "internal/draw", "internal/report", "internal/infer", "monitor",
		"internal/receiver"},
		[]string{"github.com/spf13/cobra", "github.com/spf13/pflag", "github.com/schollz/progressbar", "golang.org/x/term", "github.com/emicklei/dot",
			"github.com/prometheus/client_golang"}},
	// For tests and benchmarks only.
	{"internal/random", []string{"interaction"}, nil},
	{"internal/reference", []string{"interaction", "multitrace"}, nil},
	{"internal/gen/gentest", []string{"multitrace", "spec", "internal/gen"}, nil}, // the benchmarks' drawn multi-traces
	// pdata: the shop of monitor/e2e as OTLP requests, for load tests.
	{"internal/testutil", nil, []string{"go.opentelemetry.io/collector/pdata"}},
	{"internal/hostile", nil, nil}, // writes hostile logs for tests
	// Tools: commands for the project's developers.
	{"internal/cmd/hostilegen", []string{"internal/hostile"}, nil},                   // internal/hostile as a command
	{"internal/cmd/benchtable", []string{"internal/memlimit", "spec", "check"}, nil}, // -hibou judges the corpus as ivc analyze does
}

// nested are the nested modules (their own go.mod, a replace to this one)
// and the packages of this module their code may import (not their
// tests'): the public ones they drive, never an engine.
var nested = []struct {
	dir     string   // in this module
	imports []string // packages of this module it may import
}{
	{"beam", []string{"syntax", "interaction", "spec", "verdict", "logs", "session", "check"}},
	{"monitor/e2e", []string{"spec", "logs", "check", "monitor", "internal/receiver"}},
	{"monitor/collector", nil},
	{"monitor/loadbalance", nil},
	{"collector", []string{"syntax", "spec", "interaction", "verdict", "logs", "check", "monitor"}},
	{"browser", nil},
}

const module = "github.com/ivc-project/ivc"

// listed is a package as go list -json prints it.
type listed struct {
	ImportPath string
	Imports    []string
	Error      *struct{ Err string }
}

// goList runs go list -json on the packages of the module (not those of
// the nested modules beam/ and browser/, which have their own go.mod).
func goList(t *testing.T, root string) []listed {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goTool, "list", "-e", "-json=ImportPath,Imports,Error", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []listed
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Error != nil {
			t.Fatalf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestArchitecture(t *testing.T) {
	root := ModuleRoot(t)
	rules := map[string]int{}
	for i, r := range architecture {
		if _, dup := rules[r.pkg]; dup {
			t.Errorf("%s is listed twice", r.pkg)
		}
		for _, imp := range r.imports {
			if j, ok := rules[imp]; !ok || j >= i {
				t.Errorf("%s may import %s, which is not listed above it", r.pkg, imp)
			}
		}
		rules[r.pkg] = i
	}
	pkgs := goList(t, root)
	seen := map[string]bool{}
	for _, p := range pkgs {
		pkg, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			t.Errorf("package %s outside the module %s", p.ImportPath, module)
			continue
		}
		seen[pkg] = true
		i, ok := rules[pkg]
		if !ok {
			t.Errorf("package %s is not in the architecture: add it to the list in internal/testutil/architecture_test.go and to docs/architecture.md", pkg)
			continue
		}
		r := architecture[i]
		for _, imp := range p.Imports {
			if own, ok := strings.CutPrefix(imp, module+"/"); ok {
				if !slices.Contains(r.imports, own) {
					t.Errorf("%s imports %s: not in its architecture (%s)", pkg, own, strings.Join(r.imports, ", "))
				}
				continue
			}
			if isStandard(imp) {
				continue
			}
			if !slices.ContainsFunc(r.modules, func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }) {
				t.Errorf("%s imports %s: a module outside the standard library not in its architecture", pkg, imp)
			}
		}
	}
	for _, r := range architecture {
		if !seen[r.pkg] {
			t.Errorf("the architecture lists %s, which go list does not know", r.pkg)
		}
	}

	// docs/architecture.md names every package outside internal/ (in its
	// drawing or its lists).
	page, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range architecture {
		if strings.HasPrefix(r.pkg, "internal/") {
			continue
		}
		if !regexp.MustCompile(`(^|[^\w/])` + regexp.QuoteMeta(r.pkg) + `($|[^\w/])`).Match(page) {
			t.Errorf("docs/architecture.md does not name %s", r.pkg)
		}
	}
}

// TestNestedModules checks the imports of the nested modules' code
// against nested, reading their files: their dependencies need not be
// there.
func TestNestedModules(t *testing.T) {
	root := ModuleRoot(t)
	for _, n := range nested {
		dir := filepath.Join(root, filepath.FromSlash(n.dir))
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			t.Errorf("%s: %v", n.dir, err)
			continue
		}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				own, ok := strings.CutPrefix(p, module+"/")
				if !ok || strings.HasPrefix(own, n.dir+"/") || own == n.dir || isNested(own) {
					continue
				}
				if !slices.Contains(n.imports, own) {
					t.Errorf("%s imports %s: not in what %s may import (%s)", path, own, n.dir, strings.Join(n.imports, ", "))
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
}

// isNested reports whether pkg is in a nested module.
func isNested(pkg string) bool {
	for _, n := range nested {
		if pkg == n.dir || strings.HasPrefix(pkg, n.dir+"/") {
			return true
		}
	}
	return false
}

// isStandard reports whether an import path is the standard library's: its
// first element has no dot (as the go command decides).
func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
