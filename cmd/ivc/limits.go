package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/spf13/pflag"
)

// buildLimits are the bounds of the commands that build automata (nfa,
// compile, dot): --timeout and --max-memory, for the synthesis and the
// projections.
type buildLimits struct {
	timeout   time.Duration
	maxMemory byteSize
}

func (l *buildLimits) register(f *pflag.FlagSet) {
	f.DurationVar(&l.timeout, "timeout", 0, "time budget of the synthesis and the projections, e.g. 30s (0: none)")
	f.Var(&l.maxMemory, "max-memory", fmt.Sprintf("memory budget of the synthesis and the projections, e.g. 512MiB or 4GB (0: %s)",
		nfa.FormatBytes(nfa.DefaultMaxMemory)))
}

// check reports an invalid bound as a usage error.
func (l *buildLimits) check(a *app) error {
	if l.timeout < 0 {
		return a.usagef("invalid --timeout %s: want a positive duration, or 0 for none", l.timeout)
	}
	return nil
}

// deadline returns the deadline of a construction that starts now.
func (l *buildLimits) deadline() time.Time {
	if l.timeout <= 0 {
		return time.Time{}
	}
	return time.Now().Add(l.timeout)
}

// byteSize is a number of bytes given as a flag: a number with an optional
// unit, B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers
// of 1024), in any case.
type byteSize int64

var byteUnits = []struct {
	name string
	size float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1},
}

func (s *byteSize) String() string { return strconv.FormatInt(int64(*s), 10) }

func (s *byteSize) Type() string { return "bytes" }

// Set reads a size such as "512MiB", "4GB", "1.5 GiB" or "1000000".
func (s *byteSize) Set(v string) error {
	num, unit := strings.TrimSpace(v), 1.0
	lower := strings.ToLower(num)
	for _, u := range byteUnits {
		if strings.HasSuffix(lower, u.name) {
			num, unit = strings.TrimSpace(num[:len(num)-len(u.name)]), u.size
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || f*unit >= math.MaxInt64 {
		return fmt.Errorf("want a number of bytes, with a unit such as MiB or GB: %q", v)
	}
	*s = byteSize(f * unit)
	return nil
}
