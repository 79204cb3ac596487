package main

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/draw"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/syntax"
	"github.com/spf13/cobra"
)

func newDotCmd(a *app) *cobra.Command {
	var (
		what, out           string
		labels              bool
		location, locations string
		lim                 buildLimits
	)
	cmd := &cobra.Command{
		Use:   "dot SPEC [HIF] [--what interaction|nfa|proj|area]",
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
  --what proj          the projection DFA of one location (--location): each
                       state shows its set of NFA states, each edge its local
                       action and its area (the NFA transitions it stands
                       for, as src-action->dst), and a note gives init
  --what area          the NFA with, on each transition, the projection's
                       labels that hold it (init, or q-action->r); grey when
                       none does

The locations of proj and area (groups of lifelines that share a clock)
are those of --locations (discrete, the default: one per lifeline; trivial:
one for all; or the lifelines of each "a,b;c", as in the .htf components), and --location names one of them by its lifelines ("a" or
"a,b").

Render it with Graphviz: dot -Tsvg FILE.dot -o FILE.svg. The output is
deterministic. SPEC is a .hsf signature (the .hif of the same name beside
it is used when HIF is omitted) or a legacy single-file .hsf.`,
		Example: `  ivc dot abp/abp.hsf | dot -Tsvg -o abp.svg
  ivc dot abp/abp.hsf --what nfa --labels -o abp_nfa.dot
  ivc dot abp/abp.hsf --what proj --location S | dot -Tsvg -o proj_S.svg`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch what {
			case "interaction", "nfa", "proj", "area":
			default:
				return a.usagef("invalid --what %q: want interaction, nfa, proj or area", what)
			}
			if (what == "proj" || what == "area") != (location != "") {
				return a.usagef("--location goes with --what proj or area, and they need it")
			}
			if err := lim.check(a); err != nil {
				return err
			}
			sp, err := a.loadOnlySpec(args)
			if err != nil {
				return err
			}
			var g string
			switch what {
			case "interaction":
				g = draw.InteractionDOT(sp.Syntax, sp.HIFPath)
			case "nfa":
				m, err := synth.Compile(sp.Store, sp.Root, synth.Options{Labels: labels, File: sp.HIFPath, Syntax: sp.Syntax,
					Deadline: lim.deadline(), MaxMemory: int64(lim.maxMemory)})
				if err != nil {
					return err
				}
				g = m.NFA.DOT(nfa.DOTOptions{Name: sp.HIFPath, Labels: labels})
			case "proj", "area":
				part := interaction.DiscreteLocations(sp.Sig)
				if locations != "" {
					if part, err = interaction.ParseLocations(sp.Sig, locations); err != nil {
						return a.usagef("--locations: %v", err)
					}
				}
				loc := -1
				for i, ls := range part {
					if ls.Format(sp.Sig) == strings.ReplaceAll(location, " ", "") {
						loc = i
					}
				}
				if loc < 0 {
					var names []string
					for _, ls := range part {
						names = append(names, ls.Format(sp.Sig))
					}
					return a.usagef("--location %q is none of the locations: %s", location, strings.Join(names, "; "))
				}
				// The synthesis and the checker of the locations share the deadline.
				deadline, maxMemory := lim.deadline(), int64(lim.maxMemory)
				m, err := synth.Compile(sp.Store, sp.Root, synth.Options{Deadline: deadline, MaxMemory: maxMemory})
				if err != nil {
					return err
				}
				c, err := m.Checker(sp.Store, part, nfa.CheckerOptions{Deadline: deadline, MaxMemory: maxMemory})
				if err != nil {
					return err
				}
				opt := nfa.DOTOptions{Name: fmt.Sprintf("%s at [%s]", sp.HIFPath, part[loc].Format(sp.Sig))}
				if what == "proj" {
					g = c.Proj(loc).DOT(c.NFA(), opt)
				} else {
					g = c.Proj(loc).AreaDOT(c.NFA(), opt)
				}
			}
			if out == "" || out == "-" {
				fmt.Fprint(a.stdout, g)
				return nil
			}
			if err := atomicfile.WriteFile(out, []byte(g), 0o644); err != nil {
				return syntax.FileError(err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&what, "what", "interaction", "what to draw, `interaction|nfa|proj|area`")
	f.StringVarP(&out, "output", "o", "", "write to `FILE.dot` instead of stdout")
	f.BoolVar(&labels, "labels", false, "with --what nfa, label each state with its interaction term")
	f.StringVar(&location, "location", "", "with --what proj or area, the location drawn, by its lifelines `a,b`")
	f.StringVar(&locations, "locations", "", locationsHelp)
	lim.register(f)
	return cmd
}
