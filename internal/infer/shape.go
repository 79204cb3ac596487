package infer

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// env stands for the environment at one end of an item: a message
// received from outside the lifelines (found) or sent outside them (lost).
const env = -1

// item is one arrow of a session: a message from a lifeline to another,
// or one end of it alone, the other the environment (env).
type item struct {
	from, to int // lifelines, or env
	msg      interaction.MessageID
}

// shape returns the items of a session's multi-trace in one order that
// keeps every lifeline's order: its message sequence chart, linearized.
//
// Each lifeline's local trace is read from its location's component (the
// order between lifelines of one location is not kept: the draft does not
// force it). A reception is matched with the oldest emission of its message
// not yet received, whichever lifeline sent it (sent before it, where
// their lifelines share a clock), as the lifelines' traces
// are walked together, one event of each a round (as if they went at one
// pace, so that a message's emission is met about when it is received); a
// reception that no emission can
// precede is found (from the environment), and an emission never received
// is lost. Two messages that cross (a sends m then n, b receives n then m)
// cannot both be arrows of a weak sequence: one of them is split into its
// two ends, the draft then not forcing its emission before its reception.
//
// The order is the one of the items' creation among those whose
// predecessors on every lifeline are placed, so that sessions of one
// shape give one word.
func shape(mt *multitrace.MultiTrace, lifelines int) []item {
	seqs := make([][]event, lifelines)
	for c, comp := range mt.Components {
		for at, ev := range comp.Trace {
			for _, a := range ev {
				seqs[a.Lifeline()] = append(seqs[a.Lifeline()], event{a, c, at})
			}
		}
	}
	items, itemOf, recv := match(seqs)
	for {
		order, cut := linearize(items, itemOf)
		if cut < 0 {
			out := make([]item, len(order))
			for i, id := range order {
				out[i] = items[id]
			}
			return out
		}
		// Split the message cut into its emission, lost, and its
		// reception, found.
		to := items[cut].to
		items[cut].to = env
		found := len(items)
		items = append(items, item{from: env, to: to, msg: items[cut].msg})
		recv = append(recv, recv[cut])
		itemOf[to][recv[cut]] = found
	}
}

// event is an action of a lifeline's trace, at its place in its
// location's component.
type event struct {
	a    interaction.Action
	comp int // the component
	at   int // the event's index in it
}

// before reports whether e was seen before f on one clock: in one
// component, at an earlier place. Events of different components have no
// order but through messages.
func (e event) before(f event) bool { return e.comp != f.comp || e.at < f.at }

// match pairs the emissions and receptions of the lifelines' traces seqs
// into items; itemOf gives the item of each event of each lifeline, and
// recv the index of each item's reception in its receiver's. A reception
// is matched with an emission seen before it where their lifelines share
// a clock.
func match(seqs [][]event) (items []item, itemOf [][]int, recv []int) {
	itemOf = make([][]int, len(seqs))
	pending := map[interaction.MessageID][]int{} // emissions not yet received, oldest first
	left := map[interaction.MessageID]int{}      // emissions not yet walked
	var sent []event                             // each item's emission
	for _, s := range seqs {
		for _, e := range s {
			if e.a.Kind() == interaction.Emission {
				left[e.a.Message()]++
			}
		}
	}
	cur := make([]int, len(seqs))
	for {
		progress := false
		for l, s := range seqs {
			for cur[l] < len(s) {
				e := s[cur[l]]
				m := e.a.Message()
				var id int
				if e.a.Kind() == interaction.Emission {
					id = len(items)
					items = append(items, item{from: l, to: env, msg: m})
					recv = append(recv, -1)
					sent = append(sent, e)
					pending[m] = append(pending[m], id)
					left[m]--
				} else if k := slices.IndexFunc(pending[m], func(id int) bool { return sent[id].before(e) }); k >= 0 {
					id = pending[m][k]
					pending[m] = slices.Delete(pending[m], k, k+1)
					items[id].to = l
					recv[id] = len(itemOf[l])
				} else {
					break
				}
				itemOf[l] = append(itemOf[l], id)
				cur[l]++
				progress = true
				break // one event a lifeline a round, as if they went at one pace
			}
		}
		if progress {
			continue
		}
		// Every lifeline left waits for a reception: one of them is found,
		// preferably one whose message no lifeline emits later.
		found := -1
		for l, s := range seqs {
			if cur[l] == len(s) {
				continue
			}
			if found < 0 || left[s[cur[l]].a.Message()] == 0 && left[seqs[found][cur[found]].a.Message()] > 0 {
				found = l
			}
		}
		if found < 0 {
			return items, itemOf, recv
		}
		recv = append(recv, len(itemOf[found]))
		itemOf[found] = append(itemOf[found], len(items))
		items = append(items, item{from: env, to: found, msg: seqs[found][cur[found]].a.Message()})
		sent = append(sent, event{})
		cur[found]++
	}
}

// linearize orders the items so that each lifeline's events keep their
// order, the smallest item first among those ready (Kahn's algorithm). When
// the lifelines' orders make a cycle of items, it returns a message of the
// cycle to split (else -1).
func linearize(items []item, itemOf [][]int) (order []int, cut int) {
	succ := make([][]int, len(items))
	pred := make([][]int, len(items))
	indeg := make([]int, len(items))
	for _, ids := range itemOf {
		for i := 1; i < len(ids); i++ {
			if x, y := ids[i-1], ids[i]; x != y {
				succ[x] = append(succ[x], y)
				pred[y] = append(pred[y], x)
				indeg[y]++
			}
		}
	}
	var ready minHeap
	for id := range items {
		if indeg[id] == 0 {
			ready.push(id)
		}
	}
	order = make([]int, 0, len(items))
	for len(ready) > 0 {
		id := ready.pop()
		order = append(order, id)
		for _, s := range succ[id] {
			if indeg[s]--; indeg[s] == 0 {
				ready.push(s)
			}
		}
	}
	if len(order) == len(items) {
		return order, -1
	}
	// Every item left has a predecessor left: walking back from one meets
	// a cycle, which holds a message (a cycle of events on single
	// lifelines would contradict their orders).
	seen := make([]int, len(items))
	id := 0
	for indeg[id] == 0 {
		id++
	}
	for step := 1; seen[id] == 0; step++ {
		seen[id] = step
		for _, p := range pred[id] {
			if indeg[p] > 0 {
				id = p
				break
			}
		}
	}
	start := id
	for {
		if it := items[id]; it.from != env && it.to != env {
			return nil, id
		}
		for _, p := range pred[id] {
			if indeg[p] > 0 {
				id = p
				break
			}
		}
		if id == start {
			break
		}
	}
	// Not reached (a cycle holds a message): the items left in order.
	for id := range items {
		if indeg[id] > 0 {
			order = append(order, id)
		}
	}
	return order, -1
}

// minHeap is a priority queue of item ids, the smallest first.
type minHeap []int

func (h *minHeap) push(x int) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *minHeap) pop() int {
	s := *h
	x := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1] < s[c] {
			c++
		}
		if s[i] <= s[c] {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return x
}
