package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/spec"
	"github.com/spf13/cobra"
)

func newStatsCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "stats SPEC [HIF]",
		Short: "Measure an interaction: lifelines, messages, actions, operators, depth",
		Long: `Stats measures an interaction as written (not simplified), with the quantities
of HIBOU's "get_metrics hsf hif INT": the lifelines, messages and gates of the
signature, the lifelines the interaction uses, its actions, the number of
each operator (n-ary operators count as the binary operators they nest, a
message arrow as the actions it stands for), its depth (height of the term)
and its loop depth (most loops nested along a path).

SPEC is a .hsf signature (the .hif of the same name beside it is used when
HIF is omitted) or a legacy single-file .hsf.`,
		Example: `  ivc stats abp.hsf
  ivc stats lfrem/signature.hsf lfrem/i3.hif --format json`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			sp, err := a.loadOnlySpec(args)
			if err != nil {
				return err
			}
			m := interaction.Measure(sp.Store, sp.Root)
			if a.json() {
				line, err := json.Marshal(struct {
					Spec string `json:"spec"`
					HIF  string `json:"hif"`
					interaction.Metrics
				}{sp.SigPath, sp.HIFPath, m})
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", line)
				return nil
			}
			printStats(a, sp, m)
			return nil
		},
	}
}

func printStats(a *app, sp *spec.Spec, m interaction.Metrics) {
	w := a.stdout
	fmt.Fprintf(w, "interaction:    %s\n", specFiles(sp))
	fmt.Fprintf(w, "lifelines:      %d (%d used): %s\n", m.Lifelines, m.UsedLifelines, strings.Join(sp.Sig.Lifelines, ","))
	fmt.Fprintf(w, "messages:       %d\n", m.Messages)
	fmt.Fprintf(w, "gates:          %d\n", m.Gates)
	fmt.Fprintf(w, "actions:        %d", m.Actions)
	if m.AtomicActions != m.Actions {
		fmt.Fprintf(w, " (%d in multi-actions)", m.AtomicActions)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "symbols:        %d\n", m.Symbols)
	fmt.Fprintf(w, "depth:          %d\n", m.Depth)
	fmt.Fprintf(w, "loop depth:     %d\n", m.LoopDepth)
	fmt.Fprintf(w, "operators:\n")
	for _, c := range m.Operators.Named() {
		fmt.Fprintf(w, "  %-7s %d\n", c.Name, c.Count)
	}
}
