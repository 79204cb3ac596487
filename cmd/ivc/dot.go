package main

import (
	"fmt"
	"os"

	"github.com/ivc-project/ivc/compile"
	"github.com/ivc-project/ivc/nfa"
	"github.com/ivc-project/ivc/spec"
	"github.com/spf13/cobra"
)

func newDotCmd(a *app) *cobra.Command {
	var (
		what, out string
		labels    bool
	)
	cmd := &cobra.Command{
		Use:   "dot SPEC [HIF] [--what interaction|nfa]",
		Short: "Draw an interaction or its NFA in Graphviz DOT, for review",
		Long: `Dot writes a Graphviz drawing of a specification to stdout (or to the file
of -o), for review:

  --what interaction   the interaction as written: its operator tree, drawn
                       top-down with operands left to right, and its message
                       arrows as leaves in .hif syntax (the default)
  --what nfa           the NFA of 'ivc nfa': circles numbered from the
                       initial state (arrow from a point), double circles for
                       final states, edges labelled with actions; --labels
                       shows the interaction term of each state

Render it with Graphviz: dot -Tsvg FILE.dot -o FILE.svg. The output is
deterministic. SPEC is a .hsf signature (the .hif of the same name beside
it is used when HIF is omitted) or a legacy single-file .hsf.`,
		Example: `  ivc dot abp/abp.hsf | dot -Tsvg -o abp.svg
  ivc dot abp/abp.hsf --what nfa --labels -o abp_nfa.dot`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if what != "interaction" && what != "nfa" {
				return a.usagef("invalid --what %q: want interaction or nfa", what)
			}
			sp, rest, err := a.loadSpec(args)
			if err != nil {
				return err
			}
			if len(rest) > 0 {
				return a.usagef("unexpected argument %s (want SPEC [HIF], the HIF a .hif file)", rest[0])
			}
			var g string
			switch what {
			case "interaction":
				g = compile.DrawInteraction(sp.Syntax, sp.HIFPath)
			case "nfa":
				m, err := compile.Compile(sp.Store, sp.Root, compile.Options{Labels: labels, File: sp.HIFPath, Syntax: sp.Syntax})
				if err != nil {
					return err
				}
				g = m.DOT(nfa.DOTOptions{Name: sp.HIFPath, Labels: labels})
			}
			if out == "" || out == "-" {
				fmt.Fprint(a.stdout, g)
				return nil
			}
			if err := os.WriteFile(out, []byte(g), 0o666); err != nil {
				return spec.FileError(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&what, "what", "interaction", "what to draw, `interaction|nfa`")
	f.StringVarP(&out, "output", "o", "", "write to `FILE.dot` instead of stdout")
	f.BoolVar(&labels, "labels", false, "with --what nfa, label each state with its interaction term")
	return cmd
}
