package diagram_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// models are the shipped models written by the golden tests.
var models = []struct{ name, hsf, hif string }{
	{"abp", "../../testdata/abp/abp.hsf", ""},
	{"lfrem_i1", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i1.hif"},
	{"lfrem_i14", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i14.hif"},
	{"slice_i0", "../../testdata/slice/i0.hsf", ""},
	{"every", "testdata/every.hsf", ""},
}

func load(t *testing.T, hsf, hif string) *spec.Spec {
	t.Helper()
	sp, err := spec.Load(hsf, hif)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it; compare with git diff)", path)
	}
}

// checkMermaid: a sequenceDiagram whose blocks all end.
func checkMermaid(t *testing.T, name, src string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	if lines[0] != "sequenceDiagram" {
		t.Errorf("%s: starts with %q", name, lines[0])
	}
	open := 0
	for _, line := range lines[1:] {
		switch strings.Fields(line)[0] {
		case "loop", "alt", "par", "rect", "critical", "opt":
			open++
		case "end":
			open--
		}
		if open < 0 {
			t.Fatalf("%s: end of no block", name)
		}
	}
	if open != 0 {
		t.Errorf("%s: %d blocks not ended", name, open)
	}
}

func TestMermaidGolden(t *testing.T) {
	for _, m := range models {
		sp := load(t, m.hsf, m.hif)
		mmd := diagram.FormatMermaid(sp.Sig, sp.Syntax, m.name)
		checkMermaid(t, m.name, mmd)
		golden(t, m.name+".mmd", []byte(mmd))
	}
}

func TestPlantUMLGolden(t *testing.T) {
	for _, m := range models {
		sp := load(t, m.hsf, m.hif)
		puml := diagram.FormatPlantUML(sp.Sig, sp.Syntax, m.name)
		if !strings.HasPrefix(puml, "@startuml\n") || !strings.HasSuffix(puml, "@enduml\n") {
			t.Errorf("%s: not @startuml ... @enduml", m.name)
		}
		golden(t, m.name+".puml", []byte(puml))
	}
}
