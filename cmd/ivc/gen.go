package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/tracegen"
)

type genFlags struct {
	kind      string
	n         int
	seed      uint64
	locations string
	maxLength int
	from      string
	out       string
	force     bool
}

func newGenCmd(a *app) *cobra.Command {
	fl := &genFlags{}
	cmd := &cobra.Command{
		Use:   "gen SPEC [HIF] --kind KIND -n N -o DIR",
		Short: "Generate multi-traces: accepted ones, partial observations and mutants",
		Long: `Gen writes N multi-traces (.htf files) of the interaction into DIR, drawn by
random exploration of its semantics (each executable action equally likely,
loops bounded by --max-length), deterministically for --seed:

  accepted    accepted multi-traces
  prefix      random multi-prefixes of accepted ones (logs that stop early)
  slice       random slices (logs that also start late)
  noise       a prefix with one random action inserted
  swap-act    a prefix with two actions of one component swapped
  swap-comp   a prefix with one component taken from another prefix

Mutants are made from prefixes (--from prefix, the lifeline-removal benchmark's
method), from accepted multi-traces or from slices. --locations chooses the
locations (groups of lifelines that share a clock), one component of each
multi-trace per location: discrete (one location per lifeline, the default),
trivial (one location for all: global traces) or the lifelines of each
location "a,b;c".

The files are named KINDi.htf (accepted1.htf, ...); gen refuses (exit status
2) to replace existing ones unless --force is given.`,
		Example: `  ivc gen abp.hsf --kind accepted -n 100 --seed 1 -o traces/acc
  ivc gen abp.hsf --kind noise -n 100 --locations "S,K;L,R" -o traces/noise`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.gen(fl, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.kind, "kind", "accepted", "accepted, prefix, slice, noise, swap-act or swap-comp")
	f.IntVarP(&fl.n, "n", "n", 10, "number of multi-traces")
	f.Uint64Var(&fl.seed, "seed", 1, "random seed (the output is a function of it)")
	f.StringVar(&fl.locations, "locations", "discrete", `the locations: discrete, trivial or the lifelines of each "a,b;c"`)
	// --partition was the flag's name before ivc settled on the automata
	// paper's word, "location", for every command.
	f.StringVar(&fl.locations, "partition", "discrete", "the locations (old name of --locations)")
	f.MarkDeprecated("partition", "use --locations")
	f.IntVar(&fl.maxLength, "max-length", 30, "maximum number of events of an accepted trace")
	f.StringVar(&fl.from, "from", "prefix", "what mutants are made from: prefix, accepted or slice")
	f.StringVarP(&fl.out, "output", "o", "", "directory to write the .htf files into (created if needed)")
	f.BoolVar(&fl.force, "force", false, "replace existing .htf files")
	return cmd
}

func (a *app) gen(fl *genFlags, args []string) error {
	if fl.out == "" {
		return a.usagef("gen needs an output directory: -o DIR")
	}
	if fl.n < 1 {
		return a.usagef("-n must be at least 1")
	}
	if fl.maxLength < 1 {
		return a.usagef("--max-length must be at least 1")
	}
	kind, err := tracegen.ParseKind(fl.kind)
	if err != nil {
		return a.usagef("%v", err)
	}
	var from tracegen.Base
	switch fl.from {
	case "prefix":
		from = tracegen.FromPrefix
	case "accepted":
		from = tracegen.FromAccepted
	case "slice":
		from = tracegen.FromSlice
	default:
		return a.usagef("unknown --from %q (expected prefix, accepted or slice)", fl.from)
	}
	sp, err := a.loadOnlySpec(args)
	if err != nil {
		return err
	}
	part, err := tracegen.ParsePartition(sp.Sig, fl.locations)
	if err != nil {
		return a.usagef("--locations: %v", err)
	}
	mts, err := tracegen.Generate(sp.Store, sp.Root, tracegen.Config{
		Kind: kind, N: fl.n, Seed: fl.seed, Partition: part, From: from,
		Options: tracegen.Options{MaxLength: fl.maxLength},
	})
	if err != nil {
		return fmt.Errorf("%s: %v", spec.FileName(sp.HIFPath), err)
	}
	var files []string
	for i := range mts {
		name := filepath.Join(fl.out, fmt.Sprintf("%s%d.htf", kind, i+1))
		// Nothing is written when any file exists: a user's multi-traces
		// are not replaced by drawn ones.
		if _, err := os.Lstat(name); err == nil && !fl.force {
			return fmt.Errorf("%s: exists: not replaced (remove it, choose another -o, or give --force)", spec.FileName(name))
		}
		files = append(files, name)
	}
	if err := os.MkdirAll(fl.out, 0o755); err != nil {
		return spec.FileError(err)
	}
	for i, mt := range mts {
		if err := atomicfile.WriteFile(files[i], mt.Format(sp.Sig), 0o644); err != nil {
			return spec.FileError(err)
		}
	}
	if a.json() {
		return json.NewEncoder(a.stdout).Encode(map[string]any{"kind": kind.String(), "n": len(files), "seed": fl.seed, "files": files})
	}
	fmt.Fprintf(a.stdout, "wrote %d %s multi-traces to %s\n", len(files), kind, spec.FileName(fl.out))
	return nil
}
