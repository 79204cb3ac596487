package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/spf13/cobra"
)

// maxDFAStates bounds the determinization of ivc nfa --minimize.
const maxDFAStates = 1 << 20

func newNFACmd(a *app) *cobra.Command {
	var (
		minimize, labels bool
		dotFile          string
		maxStates        int
		lim              buildLimits
	)
	cmd := &cobra.Command{
		Use:   "nfa SPEC [HIF]",
		Short: "Synthesize the NFA of an interaction and print its size",
		Long: `Nfa translates an interaction into a nondeterministic finite automaton whose
language is exactly its global traces (a <synch> message is one symbol), and
prints its size and the time it took:

  nfa:          the reduced NFA: states, transitions, symbols
  derivatives:  the NFA of the canonical derivative terms, before reduction
  elapsed:      synthesis and reduction time (reading the files excluded)
  minimal dfa:  with --minimize, the minimal DFA of the same language

The synthesis follows the operational semantics: each derivative term of the
interaction is a state, each executable action a transition, and terms are
rewritten into a canonical form so that equivalent ones are one state;
bisimulation quotients then reduce the automaton. With --format json, one
JSON object with the fields spec, hif, states, transitions, symbols,
derivative_states, derivative_transitions, elapsed_us, synthesis_us,
reduction_us, and with --minimize min_dfa_states and min_dfa_transitions.

Only interactions of the compiled path's sublanguage have an NFA: loopS
anywhere, loopW, loopH and loopP where their derivatives are finitely many.
Other loops are rejected with their position (exit status 2); 'ivc analyze'
(the runtime engine) handles them.

SPEC is a .hsf signature (the .hif of the same name beside it is used when
HIF is omitted) or a legacy single-file .hsf.`,
		Example: `  ivc nfa abp/abp.hsf
  ivc nfa abp/abp.hsf --minimize --format json
  ivc nfa abp/abp.hsf --dot abp.dot --labels && dot -Tsvg abp.dot -o abp.svg`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			sp, err := a.loadOnlySpec(args)
			if err != nil {
				return err
			}
			if maxStates < 0 {
				return a.usagef("invalid --max-states %d: want a positive number (0 for the default)", maxStates)
			}
			if err := lim.check(a); err != nil {
				return err
			}
			opt := synth.Options{MaxStates: maxStates, Labels: labels && dotFile != "", File: sp.HIFPath, Syntax: sp.Syntax,
				Deadline: lim.deadline(), MaxMemory: int64(lim.maxMemory)}
			t0 := time.Now()
			aut, err := synth.Synthesize(sp.Store, sp.Root, opt)
			if err != nil {
				return err
			}
			t1 := time.Now()
			red := aut.NFA.Reduce()
			t2 := time.Now()
			r := nfaReport{
				Spec: sp.SigPath, HIF: sp.HIFPath,
				States: red.NumStates(), Transitions: red.NumTransitions(), Symbols: red.Symbols().Len(),
				DerivativeStates: aut.NFA.NumStates(), DerivativeTransitions: aut.NFA.NumTransitions(),
				ElapsedUS: t2.Sub(t0).Microseconds(), SynthesisUS: t1.Sub(t0).Microseconds(), ReductionUS: t2.Sub(t1).Microseconds(),
			}
			if minimize {
				d, err := red.Determinize(maxDFAStates)
				if errors.Is(err, nfa.ErrTooManyStates) {
					a.warnf("%s: no minimal DFA: the subset construction passed %d states", sp.HIFPath, maxDFAStates)
				} else {
					m := d.Minimize()
					r.MinDFAStates, r.MinDFATransitions = ptr(m.NumStates()), ptr(m.NumTransitions())
				}
			}
			if dotFile != "" {
				g := red.DOT(nfa.DOTOptions{Name: sp.HIFPath, Labels: labels})
				if err := atomicfile.WriteFile(dotFile, []byte(g), 0o644); err != nil {
					return syntax.FileError(err)
				}
			}
			if a.json() {
				line, err := json.Marshal(r)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", line)
				return nil
			}
			r.print(a, sp)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&minimize, "minimize", false, "also compute the minimal DFA (determinization may be exponential)")
	f.StringVar(&dotFile, "dot", "", "write the NFA to `FILE.dot` (Graphviz)")
	f.BoolVar(&labels, "labels", false, "with --dot, label each state with its interaction term")
	f.IntVar(&maxStates, "max-states", 0, fmt.Sprintf("state budget of the synthesis (0: %d)", synth.DefaultMaxStates))
	lim.register(f)
	return cmd
}

// nfaReport is what ivc nfa prints.
type nfaReport struct {
	Spec                  string `json:"spec"`
	HIF                   string `json:"hif"`
	States                int    `json:"states"`
	Transitions           int    `json:"transitions"`
	Symbols               int    `json:"symbols"`
	DerivativeStates      int    `json:"derivative_states"`
	DerivativeTransitions int    `json:"derivative_transitions"`
	ElapsedUS             int64  `json:"elapsed_us"`
	SynthesisUS           int64  `json:"synthesis_us"`
	ReductionUS           int64  `json:"reduction_us"`
	MinDFAStates          *int   `json:"min_dfa_states,omitempty"`
	MinDFATransitions     *int   `json:"min_dfa_transitions,omitempty"`
}

func ptr(n int) *int { return &n }

func (r nfaReport) print(a *app, sp *spec.Spec) {
	w := a.stdout
	fmt.Fprintf(w, "interaction:  %s\n", specFiles(sp))
	fmt.Fprintf(w, "nfa:          %d states, %d transitions, %d symbols\n", r.States, r.Transitions, r.Symbols)
	fmt.Fprintf(w, "derivatives:  %d states, %d transitions\n", r.DerivativeStates, r.DerivativeTransitions)
	fmt.Fprintf(w, "elapsed:      %d µs (synthesis %d µs, reduction %d µs)\n", r.ElapsedUS, r.SynthesisUS, r.ReductionUS)
	if r.MinDFAStates != nil {
		fmt.Fprintf(w, "minimal dfa:  %d states, %d transitions\n", *r.MinDFAStates, *r.MinDFATransitions)
	}
}
