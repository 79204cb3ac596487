package hcf

// Readers of loggers = [...] and of the parameters of each logger.

import "github.com/ivc-project/ivc/internal/scan"

func (p *parser) loggers(o *Options, k Kind) error {
	want := map[Kind]string{Analyze: "graphic or tracegen", Explore: "graphic, tracegen or nfa", Canonize: "graphic"}[k]
	o.Loggers = []Logger{}
	err := p.list("loggers = [...]", func() error {
		t := p.s.Next()
		l := Logger{}
		var err error
		switch {
		case t.IsIdent("graphic"):
			l.Kind = Graphic
			if p.s.Peek().Is("[") {
				err = p.graphic(&l.Graphic)
			} else if p.s.Peek().Is("=") { // graphic = svg, HIBOU ≤ 0.6
				p.s.Next()
				err = p.graphicValue(once{}, "format", p.s.Next(), &l.Graphic)
			}
		case t.IsIdent("tracegen"):
			if k == Canonize {
				return p.s.Errorf(t.Pos, "logger tracegen does not apply to @canonize_option (expected %s)", want)
			}
			l.Kind = TraceGen
			if p.s.Peek().Is("[") {
				err = p.tracegen(&l.TraceGen)
			}
		case t.IsIdent("nfa"), t.IsIdent("nfait"):
			if k != Explore {
				return p.s.Errorf(t.Pos, "logger %s applies to @explore_option only (expected %s)", t.Text, want)
			}
			l.Kind = NFA
		default:
			return p.s.Unexpected(t, "a logger ("+want+")")
		}
		o.Loggers = append(o.Loggers, l)
		return err
	})
	o.Set |= KeyLoggers
	return err
}

func (p *parser) graphic(g *GraphicLogger) error {
	const want = "a graphic logger parameter (svg, png, vertical, horizontal, draw_sd, draw_tt, draw_sub_processes, draw_legend, parent or output)"
	given := once{}
	return p.list("graphic[...]", func() error {
		t := p.s.Next()
		if t.Kind != scan.Ident {
			return p.s.Unexpected(t, want)
		}
		switch t.Text {
		case "svg", "png":
			return p.graphicValue(given, "format", t, g)
		case "vertical", "horizontal":
			return p.graphicValue(given, "layout", t, g)
		case "format", "layout":
			if _, err := p.s.Expect("=", "after "+t.Text); err != nil {
				return err
			}
			return p.graphicValue(given, t.Text, p.s.Next(), g)
		case "draw_sd":
			return p.switchParam(given, t, &g.DrawSD)
		case "draw_tt":
			return p.switchParam(given, t, &g.DrawTT)
		case "draw_sub_processes":
			return p.switchParam(given, t, &g.DrawSubProcesses)
		case "draw_legend":
			return p.switchParam(given, t, &g.DrawLegend)
		case "parent", "parent_folder", "folder":
			return p.nameParam(given, "parent", t, &g.Parent)
		case "output", "name":
			return p.nameParam(given, "output", t, &g.Output)
		}
		return p.s.Unexpected(t, want)
	})
}

// graphicValue sets the format (svg, png) or layout (vertical, horizontal)
// of g to the value v.
func (p *parser) graphicValue(given once, param string, v scan.Token, g *GraphicLogger) error {
	switch {
	case param == "format" && (v.IsIdent("svg") || v.IsIdent("png")):
		g.Format = map[string]ImageFormat{"svg": SVG, "png": PNG}[v.Text]
	case param == "layout" && (v.IsIdent("vertical") || v.IsIdent("horizontal")):
		g.Layout = map[string]Layout{"vertical": Vertical, "horizontal": Horizontal}[v.Text]
	case param == "format":
		return p.s.Unexpected(v, "svg or png for the graphic format")
	default:
		return p.s.Unexpected(v, "vertical or horizontal for the graphic layout")
	}
	return given.add(p, param, v)
}

func (p *parser) switchParam(given once, t scan.Token, dst *Switch) error {
	if err := given.add(p, t.Text, t); err != nil {
		return err
	}
	if _, err := p.s.Expect("=", "after "+t.Text); err != nil {
		return err
	}
	s, err := p.switchValue(t.Text)
	*dst = s
	return err
}

func (p *parser) nameParam(given once, param string, t scan.Token, dst *string) error {
	if err := given.add(p, param, t); err != nil {
		return err
	}
	if _, err := p.s.Expect("=", "after "+t.Text); err != nil {
		return err
	}
	s, err := p.name(t.Text)
	*dst = s
	return err
}

func (p *parser) tracegen(tg *TraceGenLogger) error {
	const want = "a tracegen parameter (generation, partition, folder, prefix or no_duplicates)"
	given := once{}
	return p.list("tracegen[...]", func() error {
		t := p.s.Next()
		if t.Kind != scan.Ident {
			return p.s.Unexpected(t, want)
		}
		switch t.Text {
		case "generation":
			if err := given.add(p, "generation", t); err != nil {
				return err
			}
			if _, err := p.s.Expect("=", "after generation"); err != nil {
				return err
			}
			return p.generation(p.s.Next(), &tg.Generation)
		case "terminal", "accepted", "exact", "modulo": // bare, HIBOU 0.8.0-0.8.4
			if err := given.add(p, "generation", t); err != nil {
				return err
			}
			return p.generation(t, &tg.Generation)
		case "prefix":
			if p.s.Peek().Is("=") {
				return p.nameParam(given, "prefix", t, &tg.Prefix)
			}
			if err := given.add(p, "generation", t); err != nil {
				return err
			}
			return p.generation(t, &tg.Generation)
		case "name_prefix", "trace_prefix":
			return p.nameParam(given, "prefix", t, &tg.Prefix)
		case "parent", "parent_folder", "folder":
			return p.nameParam(given, "folder", t, &tg.Folder)
		case "partition":
			if err := given.add(p, "partition", t); err != nil {
				return err
			}
			if _, err := p.s.Expect("=", "after partition"); err != nil {
				return err
			}
			return p.partition(&tg.Partition)
		case "no_duplicates":
			return p.switchParam(given, t, &tg.NoDuplicates)
		}
		return p.s.Unexpected(t, want)
	})
}

// generation reads the value of a generation whose first word is t.
func (p *parser) generation(t scan.Token, g *Generation) error {
	var err error
	switch {
	case t.IsIdent("terminal"):
		*g = Generation{Kind: GenTerminal}
	case t.IsIdent("accepted"):
		*g = Generation{Kind: GenAccepted}
	case t.IsIdent("prefix"):
		*g = Generation{Kind: GenPrefixes}
	case t.IsIdent("exact"):
		*g = Generation{Kind: GenAccepted} // "exact" alone: exactly accepted traces, before 0.8.5
		if p.s.Peek().IsIdent("depth") {
			p.s.Next()
			g.Kind = GenExactDepth
			g.Depth, err = p.count("exact depth")
		}
	case t.IsIdent("modulo"):
		if err = p.words("modulo", "depth"); err == nil {
			g.Kind = GenModuloDepth
			g.Depth, err = p.count("modulo depth")
		}
	default:
		err = p.s.Unexpected(t, "a generation (terminal, accepted, exact depth N or modulo depth N)")
	}
	return err
}

func (p *parser) partition(pt *Partition) error {
	t := p.s.Next()
	switch {
	case t.IsIdent("discrete"):
		*pt = Partition{Kind: PartitionDiscrete}
		return nil
	case t.IsIdent("trivial"):
		*pt = Partition{Kind: PartitionTrivial}
		return nil
	case !t.Is("{"):
		return p.s.Unexpected(t, "a partition (discrete, trivial or {(l1,l2),(l3)})")
	}
	*pt = Partition{Kind: PartitionSpecific}
	seen := map[string]scan.Token{}
	for {
		if _, err := p.s.Expect("(", "to open the lifelines of a location in the partition"); err != nil {
			return err
		}
		var group []string
		for {
			l, err := p.s.ExpectName("a lifeline name in the partition")
			if err != nil {
				return err
			}
			if first, dup := seen[l.Text]; dup {
				return p.s.Errorf(l.Pos, "lifeline %s is in two locations of the partition (first at %s)", l.Text, first.Pos)
			}
			seen[l.Text] = l
			group = append(group, l.Text)
			if u := p.s.Next(); u.Is(")") {
				break
			} else if !u.Is(",") {
				return p.s.Unexpected(u, "',' or ')' in the lifelines of a location")
			}
		}
		pt.Groups = append(pt.Groups, group)
		if u := p.s.Next(); u.Is("}") {
			return nil
		} else if !u.Is(",") {
			return p.s.Unexpected(u, "',' or '}' in the partition")
		}
	}
}
