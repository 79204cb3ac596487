package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestAnalysisOptions checks how settings are layered: the command line over
// --options FILE.hcf over a legacy .hsf's options over the defaults.
func TestAnalysisOptions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	off := write("off.hcf", "@analyze_option{ local_analysis = none; partial_order_reduction = false; strategy = BFS; filters = [max_node_number = 5] }")
	hcs := write("hcs.hcf", "@analyze_option{ strategy = HCS; analysis_kind = accept; local_analysis = [select=all] }")
	legacy, err := hcf.Parse("legacy.hsf", []byte("@analyze_option{ strategy = BreadthFS; use_locfront = false; analysis_kind = accept }"))
	if err != nil {
		t.Fatal(err)
	}
	def := check.Options{Mode: verdict.Prefix, POR: true, LOC: true, Strategy: check.DFS, Simulation: check.DefaultSimulation(), RepairFails: true}
	with := func(f func(o *check.Options)) check.Options { o := def; f(&o); return o }
	for _, tc := range []struct {
		name   string
		args   []string
		legacy *hcf.File
		want   check.Options
	}{
		{"defaults", nil, nil, def},
		{"flags", []string{"--mode", "accept", "--por=false", "--local-analyses=false", "--strategy", "bfs", "--max-nodes", "7", "--timeout", "2s", "--max-memory", "1GiB"}, nil,
			with(func(o *check.Options) {
				*o = check.Options{Mode: verdict.Accept, Strategy: check.BFS, MaxNodes: 7, Timeout: 2e9, MaxMemory: 1 << 30, Simulation: check.DefaultSimulation(), RepairFails: true}
			})},
		{"file", []string{"--options", off}, nil,
			with(func(o *check.Options) { o.POR, o.LOC, o.Strategy, o.MaxNodes = false, false, check.BFS, 5 })},
		{"flags over file", []string{"--options", off, "--por", "--loc=true" /* the deprecated name still works */, "--strategy=dfs", "--max-nodes=0"}, nil, def},
		{"new name over file", []string{"--options", off, "--por", "--local-analyses", "--strategy=dfs", "--max-nodes=0"}, nil, def},
		{"HCS is dfs", []string{"--options", hcs}, nil, with(func(o *check.Options) { o.Mode = verdict.Accept })},
		{"legacy", nil, legacy, with(func(o *check.Options) { o.Mode, o.LOC, o.Strategy = verdict.Accept, false, check.BFS })},
		{"file over legacy", []string{"--options", hcs}, legacy, with(func(o *check.Options) { o.Mode, o.LOC = verdict.Accept, true })},
		{"no repair", []string{"--repair=false"}, nil, with(func(o *check.Options) { o.RepairFails = false })},
		{"repair budget", []string{"--repair-budget", "5000,2s"}, nil,
			with(func(o *check.Options) { o.Repair = check.RepairBudget{MaxNodes: 5000, Timeout: 2e9} })},
		{"flags over legacy", []string{"--mode=prefix", "--loc"}, legacy, with(func(o *check.Options) { o.Strategy = check.BFS })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &app{env: testEnv(io.Discard, io.Discard)}
			cmd, fl := analyzeCommand(a)
			if err := cmd.ParseFlags(tc.args); err != nil {
				t.Fatal(err)
			}
			sp := &spec.Spec{SigPath: "legacy.hsf", Options: tc.legacy}
			set := settings(cmd, fl)
			opts, _, err := set.Options(sp)
			if err != nil {
				t.Fatal(err)
			}
			got := opts
			got.MaxInput = 0 // the limit of reading, not of the analysis
			if tc.want.MaxMemory == 0 {
				// The default depends on the memory available now.
				if got.MaxMemory < 256<<20 {
					t.Errorf("analyze %s: memory budget %d, want the default, at least 256 MiB", strings.Join(tc.args, " "), got.MaxMemory)
				}
				got.MaxMemory = 0
			}
			if got != tc.want {
				t.Errorf("analyze %s:\n got %+v\nwant %+v", strings.Join(tc.args, " "), got, tc.want)
			}
		})
	}
}
