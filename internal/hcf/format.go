package hcf

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// Format prints f in today's HIBOU spelling: sections in f's order, one
// declaration per line with a tab indent, options in a fixed order, legacy
// spellings replaced by their modern form. Parsing the result gives f's
// typed values back.
//
// The comments that Parse kept are printed back: around their section, or
// around their option, which moves with them.
func Format(f *File) []byte {
	var b bytes.Buffer
	scan.WriteLines(&b, f.Comments, "")
	for i, s := range f.Sections {
		if i > 0 {
			b.WriteByte('\n')
		}
		c := s.Comments
		if c == nil {
			c = &syntax.Comments{}
		}
		scan.WriteLines(&b, c.Before, "")
		b.WriteString("@" + s.Kind.String() + "{\n")
		for _, d := range declOrder {
			oc := s.OptionComments[d.name]
			if s.Options.Set&d.key == 0 {
				// A declaration that sets nothing (filters = []) is
				// not printed; its comments are.
				if oc != nil {
					scan.WriteLines(&b, oc.Before, "\t")
					scan.WriteLines(&b, oc.After, "\t")
				}
				continue
			}
			if oc == nil {
				oc = &syntax.Comments{}
			}
			scan.WriteLines(&b, oc.Before, "\t")
			b.WriteString("\t" + d.name + " = " + d.format(&s.Options) + ";")
			scan.WriteAfter(&b, oc.After)
			b.WriteByte('\n')
		}
		scan.WriteLines(&b, c.Inside, "\t")
		b.WriteByte('}')
		scan.WriteAfter(&b, c.After)
		b.WriteByte('\n')
		scan.WriteLines(&b, c.Below, "")
	}
	return b.Bytes()
}

func formatLoggers(o *Options) string {
	var ls []string
	for _, l := range o.Loggers {
		ls = append(ls, formatLogger(l))
	}
	return "[" + strings.Join(ls, ", ") + "]"
}

func formatStrategy(o *Options) string {
	if o.Strategy != GreedyBestFS {
		return o.Strategy.String()
	}
	// Kept as written: today's HIBOU has no equivalent.
	g := o.GreedyPriorities
	params := []string{"step=" + strconv.Itoa(g.Level[Step])}
	g.Level[Step] = 0
	return "GreedyBestFS[" + strings.Join(append(params, formatLevels(g)...), ", ") + "]"
}

func formatAnalysis(o *Options) string {
	if o.Analysis.Kind != Simulate {
		return o.Analysis.Kind.String()
	}
	// Every parameter is printed: HIBOU's defaults changed between versions.
	s := o.Analysis.Simulate
	return "simulate[slice=" + strconv.FormatBool(s.Slice) +
		", reset=" + strconv.FormatBool(s.Reset) +
		", multiply=" + strconv.FormatBool(s.Multiply) +
		", loop " + formatBudget(s.Loop) + ", act " + formatBudget(s.Act) + "]"
}

func formatBudget(b HibouBudget) string {
	if b.Kind == BudgetNum {
		return "num=" + strconv.Itoa(b.N)
	}
	return b.Kind.String()
}

func formatLocalAnalysis(o *Options) string {
	la := o.LocalAnalysis
	if !la.Enabled {
		return "none"
	}
	depth := "none"
	if la.MaxLookAhead != Unbounded {
		depth = strconv.Itoa(la.MaxLookAhead)
	}
	return "[select=" + la.Select.String() + ", max_look_ahead_depth=" + depth +
		", modulo=" + strconv.Itoa(la.Modulo) + "]"
}

func formatFilters(o *Options) string {
	var fs []string
	for _, f := range []struct {
		key Key
		n   int
	}{{KeyMaxDepth, o.Filters.MaxDepth}, {KeyMaxLoopDepth, o.Filters.MaxLoopDepth}, {KeyMaxNodeNumber, o.Filters.MaxNodeNumber}} {
		if o.Has(f.key) {
			fs = append(fs, f.key.String()+"="+strconv.Itoa(f.n))
		}
	}
	return "[" + strings.Join(fs, ", ") + "]"
}

func formatPriorities(o *Options) string {
	ps := formatLevels(o.Priorities)
	if o.Priorities.Randomize || ps == nil { // HIBOU wants at least one element
		ps = append(ps, "randomize="+strconv.FormatBool(o.Priorities.Randomize))
	}
	return "[" + strings.Join(ps, ", ") + "]"
}

// formatLevels returns "kind=level" for the nonzero levels of p.
func formatLevels(p Priorities) []string {
	var ps []string
	for q, n := range p.Level {
		if n != 0 {
			ps = append(ps, Priority(q).String()+"="+strconv.Itoa(n))
		}
	}
	return ps
}

func formatLogger(l Logger) string {
	var ps []string
	switch l.Kind {
	case Graphic:
		g := l.Graphic
		if g.Format != 0 {
			ps = append(ps, g.Format.String())
		}
		if g.Layout != 0 {
			ps = append(ps, g.Layout.String())
		}
		for _, s := range []struct {
			name string
			v    Switch
		}{{"draw_sd", g.DrawSD}, {"draw_tt", g.DrawTT}, {"draw_sub_processes", g.DrawSubProcesses}, {"draw_legend", g.DrawLegend}} {
			if s.v != 0 {
				ps = append(ps, s.name+"="+s.v.String())
			}
		}
		if g.Parent != "" {
			ps = append(ps, "parent="+g.Parent)
		}
		if g.Output != "" {
			ps = append(ps, "output="+g.Output)
		}
	case TraceGen:
		t := l.TraceGen
		switch t.Generation.Kind {
		case 0:
		case GenExactDepth, GenModuloDepth:
			ps = append(ps, "generation="+t.Generation.Kind.String()+" "+strconv.Itoa(t.Generation.Depth))
		default:
			ps = append(ps, "generation="+t.Generation.Kind.String())
		}
		switch t.Partition.Kind {
		case 0:
		case PartitionSpecific:
			var gs []string
			for _, g := range t.Partition.Groups {
				names := make([]string, len(g))
				for i, l := range g {
					names[i] = syntax.QuoteName(l)
				}
				gs = append(gs, "("+strings.Join(names, ",")+")")
			}
			ps = append(ps, "partition={"+strings.Join(gs, ",")+"}")
		default:
			ps = append(ps, "partition="+t.Partition.Kind.String())
		}
		if t.Folder != "" {
			ps = append(ps, "folder="+t.Folder)
		}
		if t.Prefix != "" {
			ps = append(ps, "prefix="+t.Prefix)
		}
		if t.NoDuplicates != 0 {
			ps = append(ps, "no_duplicates="+t.NoDuplicates.String())
		}
	}
	if ps == nil {
		return l.Kind.String()
	}
	return l.Kind.String() + "[" + strings.Join(ps, ", ") + "]"
}
