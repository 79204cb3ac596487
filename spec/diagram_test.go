package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

const design = "# Design\n\n## Checkout\n\n```mermaid\nsequenceDiagram\n    participant GW as api-gateway\n    GW->>Orders: POST /order\n    Orders->>Orders: validate\n    Orders-->>GW: 201\n```\n\n## Other\n\n```mermaid\nsequenceDiagram\n    A->>B: m\n```\n"

// TestLoadDiagram: a diagram alone is a whole specification, its signature
// derived; beside a .hsf, it is the interaction, its participants found by
// id or by name.
func TestLoadDiagram(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "design.md")
	hsf := filepath.Join(dir, "sig.hsf")
	if err := os.WriteFile(md, []byte(design), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hsf, []byte("@lifeline{\"api-gateway\";Orders}\n@message{\"POST /order\";\"201\";validate}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sp, err := Load(md+"#checkout", "")
	if err != nil {
		t.Fatal(err)
	}
	if sp.SigPath != md+"#checkout" || sp.HIFPath != sp.SigPath {
		t.Errorf("SigPath %q, HIFPath %q", sp.SigPath, sp.HIFPath)
	}
	if got := strings.Join(sp.Sig.Lifelines, ","); got != "api-gateway,Orders" {
		t.Errorf("lifelines %s", got)
	}
	if got := sp.Store.Format(sp.Root); got != `seq(strict("api-gateway"!"POST /order",Orders?"POST /order"),strict(Orders!"201","api-gateway"?"201"))` {
		t.Errorf("interaction %s", got)
	}
	if len(sp.Warnings) != 1 || !strings.Contains(sp.Warnings[0].Error(), "design.md:9:5: warning: a self-message read as a note") {
		t.Errorf("warnings %v", sp.Warnings)
	}

	sp, err = Options{SelfMessages: true}.Load(hsf, md+"#1")
	if err != nil {
		t.Fatal(err)
	}
	if sp.Sig.NumLifelines() != 2 || sp.HIFPath != md+"#1" || len(sp.Warnings) != 0 {
		t.Errorf("lifelines %v, HIFPath %q, warnings %v", sp.Sig.Lifelines, sp.HIFPath, sp.Warnings)
	}
	if got := sp.Store.NumActions(sp.Root); got != 6 {
		t.Errorf("%d actions, want 6 (the self-message a message)", got)
	}

	// From the text, as a remote worker loads it.
	_, src, err := Options{SelfMessages: true}.LoadSource(md+"#checkout", "")
	if err != nil {
		t.Fatal(err)
	}
	again, err := src.Parse()
	if err != nil || again.Store.NumActions(again.Root) != 6 {
		t.Errorf("Source.Parse: %v", err)
	}

	for _, c := range []struct{ hsf, hif, want string }{
		{md, "", "design.md: 2 sequence diagrams: choose one with"},
		{md + "#1", hsf, "design.md#1: a diagram alone is a whole specification: do not also give"},
		{hsf, md + "#2", "design.md:17:12: undeclared message \"m\""},
		{filepath.Join(dir, "missing.md#1"), "", "missing.md: no such file or directory"},
	} {
		_, err := Load(c.hsf, c.hif)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s, %s): %v, want %s", c.hsf, c.hif, err, c.want)
		}
	}
}

// TestParseDiagram: a diagram's text is read by its name, with no file.
func TestParseDiagram(t *testing.T) {
	sp, err := Parse("mem/flow.puml", []byte("@startuml\nA -> B : hi\n@enduml\n"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(interaction.FormatSignature(sp.Sig)); !strings.Contains(got, "hi") {
		t.Errorf("signature %s", got)
	}
}
