package check

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/repair"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// RepairBudget bounds the search for the repair of one multi-trace
// (Options.Repair): its work (MaxNodes: the states of the automata
// engine's alignment, or the vertices of the runtime engine's checks of
// candidate repairs; 0: DefaultRepairNodes) and its time (Timeout; 0:
// none). Past them, the repair is the best found, marked incomplete.
type RepairBudget struct {
	MaxNodes int
	Timeout  time.Duration
}

// ParseRepairBudget reads a repair budget as written: a number of nodes
// (100000), a time (2s), or both separated by a comma (100000,2s); "" is
// the zero budget (the defaults).
func ParseRepairBudget(s string) (RepairBudget, error) {
	var b RepairBudget
	if s == "" {
		return b, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if n, err := strconv.Atoi(part); err == nil && n > 0 && b.MaxNodes == 0 {
			b.MaxNodes = n
			continue
		}
		if d, err := time.ParseDuration(part); err == nil && d > 0 && b.Timeout == 0 {
			b.Timeout = d
			continue
		}
		return RepairBudget{}, fmt.Errorf("invalid repair budget %q", s)
	}
	return b, nil
}

// DefaultRepairNodes bounds the work of a repair when
// RepairBudget.MaxNodes is 0: a few tens of milliseconds. Repairs are on
// by default for every Fail, and a bound of 2^20 made a batch of the
// lifeline-removal corpus's Fails (i3, accept mode) take 100 times as long
// as its checks, a few runtime-engine repairs taking most of it; 2^16
// makes it about 14 times, with 18 of 188 repairs incomplete (the best
// found, still checked again).
const DefaultRepairNodes = 1 << 16

// ErrWrongRepair is wrapped by the error of Repair when a repair, checked
// again, still fails: a bug of the engine that found it.
var ErrWrongRepair = errors.New("a repair checked again still fails")

// Repair returns a smallest repair of mt, whose check by c gave res (the
// result of c.Check(mt)): the fewest edits, each deleting an event of a
// component or inserting one and costing 1, after which mt is no longer
// Fail in c's mode (docs/repairs.md). For any verdict but Fail it returns
// the zero Repair at once: Pass and WeakPass cost nothing more, and an
// Inconc may be no failure.
//
// The engine is the one that checks mt: the automata engine computes an
// alignment of the logs with its NFA, the runtime engine (interactions
// outside the compiled sublanguage, slice mode) searches candidate repairs
// by increasing number of edits, each judged by a check. Options.Repair
// bounds either; past it the repair is the best found so far, if any, and
// Incomplete. Every repair is applied to mt and checked again by the same
// engine before it is returned: one that still fails is never returned,
// but an error wrapping ErrWrongRepair; one whose check is undecided
// (Inconc) is not returned either, and the repair is Incomplete with that
// reason.
func (c *Checker) Repair(mt *multitrace.MultiTrace, res verdict.Result) (verdict.Repair, error) {
	if res.Verdict != verdict.Fail {
		return verdict.Repair{}, nil
	}
	budget := c.opt.Repair
	if budget.MaxNodes <= 0 {
		budget.MaxNodes = DefaultRepairNodes
	}
	var deadline time.Time
	if budget.Timeout > 0 {
		deadline = time.Now().Add(budget.Timeout)
	}
	if c.auto != nil {
		r, err := c.auto.Repair(mt, nfa.AlignOptions{MaxNodes: budget.MaxNodes, Deadline: deadline})
		switch {
		case err == nil:
			return c.verified(mt, r, c.auto.Check)
		case c.opt.Engine != EngineAuto || !pastLimits(err):
			return verdict.Repair{}, fmt.Errorf("check: repair: %w", err)
		}
		// The checker of mt's partition is past the attempt's limits: the
		// runtime engine judged mt, and repairs it.
	}
	a, _ := c.analyzer()
	defer c.release(a)
	opt := repair.Options{MaxNodes: budget.MaxNodes, Deadline: deadline, Truncate: c.opt.Mode != verdict.Accept}
	if e := res.Explanation; e != nil && len(e.Components) == len(mt.Components) {
		opt.Near = make([]int, len(mt.Components))
		for i, cp := range e.Components {
			opt.Near[i] = cp.Consumed
			if e.LocalFailure != "" && cp.Lifelines == e.LocalFailure {
				opt.Focus = i + 1
			}
		}
	}
	r := repair.Search(mt, c.alphabet(mt), a.Check, opt)
	return c.verified(mt, r, a.Check)
}

// repairOutcome is the repair of a Fail as an outcome carries it: a repair
// that could not be given (ErrWrongRepair: a bug) is an incomplete one
// without edits, which says why, so that the verdict still stands.
func (c *Checker) repairOutcome(mt *multitrace.MultiTrace, res verdict.Result) *verdict.Repair {
	r, err := c.Repair(mt, res)
	if err != nil {
		r = verdict.Repair{Incomplete: true, Detail: "internal error: " + err.Error() + " (please report this bug, with the input files)"}
	}
	return &r
}

// verified checks the repair r of mt again with judge, the check of the
// engine that found it, and gives it as verdict's Repair.
func (c *Checker) verified(mt *multitrace.MultiTrace, r repair.Result, judge func(*multitrace.MultiTrace) verdict.Result) (verdict.Repair, error) {
	out := verdict.Repair{Incomplete: r.Incomplete, Reason: r.Reason, Detail: r.Detail, Nodes: r.Nodes}
	if !r.Found {
		if !r.Incomplete {
			out.Detail = "no repair: the interaction accepts no multi-trace in " + c.opt.Mode.String() + " mode"
		}
		return out, nil
	}
	got := judge(repair.Apply(mt, r.Edits))
	switch {
	case got.Verdict == verdict.Fail:
		return verdict.Repair{}, fmt.Errorf("check: %w: %d edits, %s", ErrWrongRepair, len(r.Edits), got.Text())
	case !got.Verdict.OK():
		out.Incomplete, out.Reason = true, got.Reason
		out.Detail = "the repaired multi-trace could not be checked: " + got.Text()
		return out, nil
	}
	out.Edits, out.Verdict = repair.Public(c.sp.Sig, mt, r.Edits), got.Verdict
	return out, nil
}

// alphabet returns the events each component of mt may show (see
// repair.Alphabet), made once per partition of the lifelines.
func (c *Checker) alphabet(mt *multitrace.MultiTrace) [][]interaction.MultiAction {
	locs := mt.Locations()
	key := locs.Format(c.sp.Sig)
	if a, ok := c.alphabets.Load(key); ok {
		return a.([][]interaction.MultiAction)
	}
	// The spec's store is read, as by analyzer, under the lock.
	c.mu.Lock()
	a := repair.Alphabet(c.sp.Store, c.sp.Root, locs)
	c.mu.Unlock()
	c.alphabets.Store(key, a)
	return a
}
