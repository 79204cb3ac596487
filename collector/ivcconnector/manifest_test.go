package ivcconnector_test

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestManifest: the builder manifest's components are required by go.mod
// (this module's tests build a Collector of them: factories, providers), at
// the same versions.
func TestManifest(t *testing.T) {
	src, err := os.ReadFile("../builder-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(src, &m); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]string{} // the direct requirements
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(line); len(f) == 2 && strings.HasPrefix(line, "\t") {
			versions[f[0]] = f[1]
		}
	}
	n := 0
	for _, kind := range []string{"receivers", "processors", "connectors", "exporters", "providers"} {
		list, _ := m[kind].([]any)
		if len(list) == 0 {
			t.Errorf("%s: none", kind)
		}
		for _, c := range list {
			gomod, _ := c.(map[string]any)["gomod"].(string)
			path, version, _ := strings.Cut(gomod, " ")
			n++
			if strings.HasPrefix(path, "github.com/ivc-project/ivc") {
				continue // replaced by the clone's
			}
			if got, ok := versions[path]; !ok {
				t.Errorf("%s: %s is not a direct requirement of go.mod", kind, path)
			} else if got != version {
				t.Errorf("%s: %s %s, go.mod has %s", kind, path, version, got)
			}
		}
	}
	if n != 9 {
		t.Errorf("%d components, want 9", n)
	}
}
