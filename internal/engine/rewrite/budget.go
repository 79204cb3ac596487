package rewrite

import (
	"fmt"
	"time"

	"github.com/ivc-project/ivc/verdict"
)

// The limits of a search — vertices (Options.MaxNodes), memory
// (Options.MaxMemory) and time (Options.Timeout) — are checked at every
// vertex of the global search, of a local analysis and of a completion;
// memory and time also in the long loops of one vertex (the local analyses
// of many components) and, through interaction.Store.OnGrowth, inside the
// computation of a frontier, which can take quadratic memory and time on
// its own. A limit stops the search with Inconc and says which.

// abandon is the panic by which the store's growth hook abandons an
// operation in progress when a limit is hit; analyze recovers it.
type abandon struct{}

// count accounts for one explored vertex of the global search (or of a
// local analysis) and checks the limits. The vertex that would exceed the
// node budget is not counted: a search stopped by it explored exactly
// MaxNodes vertices.
func (pb *problem) count(local bool) bool {
	if pb.stopped != "" {
		return false
	}
	if pb.nodes+pb.localNodes >= pb.maxNodes {
		if pb.optimistic { // the attempt gives up: the searches decide (see accepted)
			pb.gaveUp = true
			return false
		}
		pb.stop(verdict.NodeLimit, pb.nodeLimitText())
		return false
	}
	if local {
		pb.localNodes++
	} else {
		pb.nodes++
	}
	return pb.within()
}

func (pb *problem) nodeLimitText() string {
	max := pb.a.opts.MaxNodes
	if pb.localNodes == 0 {
		return fmt.Sprintf("node limit reached (%d vertices)", max)
	}
	return fmt.Sprintf("node limit reached (%d vertices: %d of the search, %d of local analyses)", max, pb.nodes, pb.localNodes)
}

// within checks the memory and time budgets.
func (pb *problem) within() bool {
	if pb.stopped != "" {
		return false
	}
	opts := &pb.a.opts
	if opts.MaxMemory > 0 {
		if b := pb.bytes(); b > opts.MaxMemory {
			pb.stop(verdict.Memory, fmt.Sprintf("memory limit reached (%s of search data; --max-memory raises it)", formatBytes(opts.MaxMemory)))
			return false
		}
	}
	if !pb.deadline.IsZero() {
		pb.ticks++
		if pb.ticks&63 == 0 && time.Now().After(pb.deadline) {
			pb.stop(verdict.Timeout, fmt.Sprintf("timeout after %v", opts.Timeout))
			return false
		}
	}
	return true
}

// withinNow is within, looking at the clock now: for the long steps of
// one vertex.
func (pb *problem) withinNow() bool {
	pb.ticks |= 63
	return pb.within()
}

// grows is the store's growth hook during an analysis (see
// interaction.Store.OnGrowth): past a limit, it abandons the operation.
func (pb *problem) grows() {
	if !pb.withinNow() {
		panic(abandon{})
	}
}

// guard runs f, and reports false when the store's growth hook abandoned
// it (pb.stopped says why).
func (pb *problem) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(abandon); !is {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

func (pb *problem) stop(r verdict.Reason, text string) {
	if pb.stopped == "" {
		pb.stopped, pb.stopReason = text, r
	}
}

// bytes estimates the memory the analysis takes: what its store (terms and
// memos, see interaction.Store.Bytes) holds beyond the interaction itself,
// and the data of its searches.
func (pb *problem) bytes() int64 {
	a := pb.a
	b := a.st.Bytes() - a.base
	b += a.vs.bytes() + 12*int64(cap(a.work)+cap(a.via))
	b += int64(len(a.loc))*keptBytes + int64(len(pb.completing))*20 + 16*int64(cap(pb.locStack)) + 4*int64(cap(pb.bestTerms))
	if g := pb.graph; g != nil {
		b += int64(g.bytes) + 24*int64(len(g.ids))
	}
	return b + pb.extra
}

// formatBytes writes n in binary units: "512 MiB", "4 GiB", "1.5 GiB".
func formatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	x, u := float64(n), 0
	for x >= 1024 && u < len(units)-1 {
		x /= 1024
		u++
	}
	if x == float64(int64(x)) {
		return fmt.Sprintf("%d %s", int64(x), units[u])
	}
	return fmt.Sprintf("%.1f %s", x, units[u])
}
