package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
)

type genFlags struct {
	kind      string
	n         int
	seed      uint64
	locations string
	maxLength int
	minLength int
	from      string
	out       string
	force     bool
	logFormat string
	perLoc    bool
	rotate    int
	maxMemory byteSize
}

func newGenCmd(a *app) *cobra.Command {
	fl := &genFlags{}
	cmd := &cobra.Command{
		Use:   "gen SPEC [HIF] --kind KIND -n N -o DIR",
		Short: "Generate multi-traces: accepted ones, partial observations and mutants",
		Long: `Gen writes N multi-traces (.htf files) of the interaction into DIR, drawn by
random exploration of its semantics (each executable action equally likely),
deterministically for --seed:

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

Every multi-trace comes from an accepted global trace of --min-length to
--max-length events (default 1 to 100; loops are unfolded within them). A
walk stops, where the interaction accepts what it has drawn, with
probability 0.1; a walk that would pass --max-length is drawn again. The
empty trace, which an interaction made of loops accepts (and where a walk
would often stop), is drawn only with --min-length 0. When no walk of 1000
ends within the bounds, gen fails (exit status 2) and says which bound to
change.

The files are named KINDi.htf (accepted1.htf, ...); gen refuses (exit status
2) to replace existing ones unless --force is given.

--log-format writes the multi-traces as one log instead, DIR/KIND.EXT, one
session each: a JSON Lines or CSV event log (sessions interleaved, each
location with its own clock), OpenTelemetry OTLP/JSON or Jaeger JSON traces.
ivc analyze reads it back (with the same --locations) to the same verdicts.
--log-per-location writes one log per location instead (KIND.locN.EXT), the
logs of distributed services; --rotate N rotates each log every N events, as
logrotate does: KIND.locN.EXT holds the newest events, KIND.locN.1.EXT those
before, and so on.`,
		Example: `  ivc gen abp.hsf --kind accepted -n 100 --seed 1 -o traces/acc
  ivc gen abp.hsf --kind noise -n 100 --locations "S,K;L,R" -o traces/noise
  ivc gen abp.hsf --kind prefix -n 1000 --log-format otlp -o logs
  ivc gen abp.hsf --kind accepted -n 1000 --log-format jsonl --log-per-location --rotate 500 -o services`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.gen(fl, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.kind, "kind", "accepted", "accepted, prefix, slice, noise, swap-act or swap-comp")
	f.IntVarP(&fl.n, "n", "n", 10, "number of multi-traces")
	f.Uint64Var(&fl.seed, "seed", 1, "random seed (the output is a function of it)")
	f.StringVar(&fl.locations, "locations", "", locationsHelp)
	// --partition was the flag's name before ivc settled on the automata
	// paper's word, "location", for every command.
	f.StringVar(&fl.locations, "partition", "", "the locations (old name of --locations)")
	f.MarkDeprecated("partition", "use --locations")
	f.IntVar(&fl.maxLength, "max-length", 100, "maximum number of events of an accepted trace")
	f.IntVar(&fl.minLength, "min-length", 1, "minimum number of events of an accepted trace (0: the empty trace too)")
	fl.maxMemory = gen.DefaultMaxMemory
	f.Var(&fl.maxMemory, "max-memory", "memory of the interaction's frontiers that the walks may take, e.g. 4GiB (operators nested deep take it quadratically)")
	f.StringVar(&fl.from, "from", "prefix", "what mutants are made from: prefix, accepted or slice")
	f.StringVarP(&fl.out, "output", "o", "", "directory to write the .htf files into (created if needed)")
	f.BoolVar(&fl.force, "force", false, "replace existing .htf files (or log)")
	f.StringVar(&fl.logFormat, "log-format", "htf", "write `htf` files, or one log: jsonl, csv, otlp or jaeger")
	f.BoolVar(&fl.perLoc, "log-per-location", false, "with --log-format, one log per location (KIND.locN.EXT, each its own clock), as distributed services write them")
	f.IntVar(&fl.rotate, "rotate", 0, "with --log-format, rotate each log every `N` events (KIND.EXT newest, then KIND.1.EXT, ...; 0: no rotation)")
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
	if fl.minLength < 0 || fl.minLength > fl.maxLength {
		return a.usagef("--min-length must be from 0 to --max-length (%d)", fl.maxLength)
	}
	if fl.rotate < 0 {
		return a.usagef("--rotate must be at least 1 (or 0: no rotation)")
	}
	logFormat, err := logs.ParseFormat(fl.logFormat)
	if err != nil || logFormat == logs.Auto {
		return a.usagef("invalid --log-format %q: want htf, jsonl, csv, otlp or jaeger", fl.logFormat)
	}
	if fl.rotate > 0 && logFormat == logs.HTF {
		return a.usagef("--rotate needs --log-format jsonl, csv, otlp or jaeger")
	}
	kind, err := gen.ParseKind(fl.kind)
	if err != nil {
		return a.usagef("%v", err)
	}
	from, err := gen.ParseBase(fl.from)
	if err != nil {
		return a.usagef("unknown --from %q (expected prefix, accepted or slice)", fl.from)
	}
	sp, err := a.loadOnlySpec(args)
	if err != nil {
		return err
	}
	part, err := interaction.ParseLocations(sp.Sig, fl.locations)
	if err != nil {
		return a.usagef("--locations: %v", err)
	}
	cfg := gen.Config{
		Kind: kind, N: fl.n, Seed: fl.seed, Locations: part, From: from,
		Options: gen.Options{MaxLength: fl.maxLength, MinLength: fl.minLength, MaxMemory: int64(fl.maxMemory)},
	}
	// The names are known before anything is drawn: nothing is written
	// when any file exists, a user's multi-traces are not replaced by
	// drawn ones.
	name := func(i int) string { return filepath.Join(fl.out, fmt.Sprintf("%s%d.htf", kind, i+1)) }
	count := fl.n
	if logFormat != logs.HTF {
		count = 1
		name = func(int) string { return filepath.Join(fl.out, kind.String()+logFileExt[logFormat]) }
		if fl.perLoc {
			count = len(part)
			name = func(i int) string {
				return filepath.Join(fl.out, fmt.Sprintf("%s.loc%d%s", kind, i+1, logFileExt[logFormat]))
			}
		}
	}
	for i := range count {
		if _, err := os.Lstat(name(i)); err == nil && !fl.force {
			return fmt.Errorf("%s: exists: not replaced (remove it, choose another -o, or give --force)", syntax.FileName(name(i)))
		}
	}
	if logFormat != logs.HTF {
		files := make([]string, count)
		for i := range files {
			files[i] = name(i)
		}
		if err := os.MkdirAll(fl.out, 0o755); err != nil {
			return syntax.FileError(err)
		}
		return a.writeLog(fl, files, logFormat, kind, sp, cfg)
	}
	// The multi-traces are written as they are drawn, one at a time: the
	// memory gen needs does not grow with -n.
	var files []string // for --json only
	i := 0
	for mt, err := range gen.Stream(sp.Store, sp.Root, cfg) {
		if err != nil {
			return genError(sp, err)
		}
		if i == 0 {
			if err := os.MkdirAll(fl.out, 0o755); err != nil {
				return syntax.FileError(err)
			}
		}
		if err := atomicfile.WriteFile(name(i), mt.Format(sp.Sig), 0o644); err != nil {
			return syntax.FileError(err)
		}
		if a.json() {
			files = append(files, name(i))
		}
		i++
	}
	if a.json() {
		return json.NewEncoder(a.stdout).Encode(map[string]any{"kind": kind.String(), "n": i, "seed": fl.seed, "files": files})
	}
	fmt.Fprintf(a.stdout, "wrote %d %s multi-traces to %s\n", i, kind, syntax.FileName(fl.out))
	return nil
}

// genError is an error of drawing from sp's interaction, naming its file;
// past the bounds of the walks, it says which flag to change rather than
// print the interaction.
func genError(sp *spec.Spec, err error) error {
	var be *gen.BoundError
	if errors.As(err, &be) {
		hint := "raise --max-length"
		if be.MinLength > 0 {
			hint += " (or lower --min-length)"
		}
		return fmt.Errorf("%s: no accepted trace %s in %d random walks: %s", syntax.FileName(sp.HIFPath), be.Lengths(), be.Tries, hint)
	}
	var me *gen.MemoryError
	if errors.As(err, &me) {
		return fmt.Errorf("%s: %v: raise --max-memory", syntax.FileName(sp.HIFPath), err)
	}
	return fmt.Errorf("%s: %v", syntax.FileName(sp.HIFPath), err)
}

// logFileExt is the extension of the log gen writes, by format.
var logFileExt = map[logs.Format]string{logs.JSONL: ".jsonl", logs.CSV: ".csv", logs.OTLP: ".json", logs.Jaeger: ".json"}

// writeLog writes the multi-traces cfg draws as one log of format f, the
// file names[0], or, with --log-per-location, one log per location k, the
// file names[k], each with its own clock and the same session ids; with
// --rotate, each log is rotated into several files (names[k] the newest).
// The multi-traces are drawn again for each log and written as they are
// drawn, into temporary files renamed at the end: the memory gen needs does
// not grow with -n. Nothing is written when a rotated file's name exists
// (unless --force).
func (a *app) writeLog(fl *genFlags, names []string, f logs.Format, kind gen.Kind, sp *spec.Spec, cfg gen.Config) (err error) {
	var temps []*atomicfile.Temp
	defer func() {
		if err != nil {
			for _, t := range temps {
				t.Abort()
			}
		}
	}()
	var files []string
	n := 0
	for k, name := range names {
		first := len(temps)
		n = 0
		mts := func(yield func(*multitrace.MultiTrace, error) bool) {
			for mt, err := range gen.Stream(sp.Store, sp.Root, cfg) {
				if err != nil {
					yield(nil, genError(sp, err))
					return
				}
				n++
				p := &mt
				if fl.perLoc {
					p = gen.LocationOf(p, k)
				}
				if !yield(p, nil) {
					return
				}
			}
		}
		_, err := gen.WriteStream(func() (io.Writer, error) {
			t, err := atomicfile.CreateTemp(fl.out)
			if err != nil {
				return nil, syntax.FileError(err)
			}
			temps = append(temps, t)
			return t, nil
		}, f, sp.Sig, func(i int) string { return gen.SessionID(f, i, int64(fl.seed)) }, mts, int64(fl.seed)+int64(k), fl.rotate)
		if err != nil {
			return err
		}
		for i := first; i < len(temps); i++ { // the oldest first
			files = append(files, rotatedName(name, len(temps)-1-i))
		}
	}
	for _, name := range files {
		if _, err := os.Lstat(name); err == nil && !fl.force {
			return fmt.Errorf("%s: exists: not replaced (remove it, choose another -o, or give --force)", syntax.FileName(name))
		}
	}
	for i, name := range files {
		if err := temps[i].Commit(name, 0o644); err != nil {
			temps = temps[i+1:]
			return syntax.FileError(err)
		}
	}
	if a.json() {
		return json.NewEncoder(a.stdout).Encode(map[string]any{"kind": kind.String(), "n": n, "seed": fl.seed,
			"files": files, "log_format": f.String()})
	}
	what := syntax.FileName(files[0])
	if len(files) > 1 {
		what = fmt.Sprintf("%d logs, %s ... %s", len(files), syntax.FileName(files[0]), syntax.FileName(files[len(files)-1]))
	}
	fmt.Fprintf(a.stdout, "wrote %d %s multi-traces as sessions of %s\n", n, kind, what)
	return nil
}

// rotatedName is the name of the file of a rotated log that comes age files
// before the newest, name: NAME.EXT, NAME.1.EXT, NAME.2.EXT, ...
func rotatedName(name string, age int) string {
	if age == 0 {
		return name
	}
	ext := filepath.Ext(name)
	return fmt.Sprintf("%s.%d%s", strings.TrimSuffix(name, ext), age, ext)
}
