package session

import (
	"sync"
	"sync/atomic"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// Leases are the storages of the sessions a Source that reuses them
// (Source.Reuse) builds: one a session, its multi-trace and its origins,
// given back by Meta.Release once the session is judged, and taken again
// for a session after it. A log's sessions are then built in memory that
// is still in the cache rather than in new memory, which the sessions
// built before it filled (JSON Lines logs → verdicts, one worker, check's
// BenchmarkLogs: distinct-i0 6% less CPU an event, repeated-i14 4%,
// repeated-i1 within its noise; see docs/benchmarks.md). A session never
// released is collected, as any.
type leases struct {
	// last is the lease given back last, taken without the lock: with one
	// reader, the one lease its sessions take in turn.
	last atomic.Pointer[lease]
	mu   sync.Mutex
	free []*lease
}

// A lease is the storage of one session: its arena holds its multi-trace,
// its origins and build's buffers, sized for the largest session it held
// (at most maxLeaseEvents); gen counts its sessions, so that a session
// released twice (through two copies of its Meta) gives it back once.
type lease struct {
	from    *leases
	gen     atomic.Uint32
	acts    []interaction.Action
	trace   []interaction.MultiAction
	at      []origin
	comps   []multitrace.Component
	starts  []int32
	mt      [1]multitrace.MultiTrace
	origins [1]Origins
	a       arena
}

// maxLeaseEvents bounds the events of the sessions whose storage is taken
// again: a lease that held a larger one is left to the collector, so that
// one huge session does not keep its memory for the small ones after it.
const maxLeaseEvents = 1 << 14

// get returns a lease whose arena holds a session of events events on
// locs locations, with the joiner's shapes.
func (p *leases) get(events, locs int, x *shapes) *lease {
	l := p.last.Swap(nil)
	if l == nil {
		p.mu.Lock()
		if n := len(p.free); n > 0 {
			l, p.free = p.free[n-1], p.free[:n-1]
		}
		p.mu.Unlock()
	}
	if l == nil {
		l = &lease{from: p}
	}
	if len(l.acts) < events {
		n := max(events, 64, 2*len(l.acts))
		l.acts, l.trace, l.at = make([]interaction.Action, n), make([]interaction.MultiAction, n), make([]origin, n)
	}
	if len(l.comps) < locs {
		l.comps, l.starts = make([]multitrace.Component, locs), make([]int32, locs+1)
	}
	a := &l.a
	a.acts, a.trace, a.at, a.comps, a.starts = l.acts, l.trace, l.at, l.comps, l.starts
	a.mts, a.origins, a.shapes = l.mt[:], l.origins[:], x
	return l
}

// put takes back l, leased as gen, unless it was given back already.
func (p *leases) put(l *lease, gen uint32) {
	if !l.gen.CompareAndSwap(gen, gen+1) || len(l.acts) > maxLeaseEvents {
		return
	}
	if p.last.CompareAndSwap(nil, l) {
		return
	}
	p.mu.Lock()
	p.free = append(p.free, l)
	p.mu.Unlock()
}

// Release gives the storage of the session's multi-trace and origins back
// to the Source that built it when that Source reuses storage
// (Source.Reuse), for a session after it: neither may be read after it,
// through any copy of the session or of its Meta (Checker.Run releases a
// session once its outcome's emit has returned). It does nothing for the
// session of a Source that does not reuse storage, nor the second time.
func (m *Meta) Release() {
	if l := m.lease; l != nil {
		m.lease = nil
		l.from.put(l, m.leased)
	}
}
