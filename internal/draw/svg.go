package draw

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text metrics. Every label is set in a monospace font, so that its width
// is known without font files: an advance of at most 0.6 em per character
// (DejaVu Sans Mono, Menlo, Consolas and Liberation Mono all have 0.6 em),
// rounded up. Layouts that keep these boxes apart keep the text apart.
const (
	fontSize   = 12
	charWidth  = 7.5 // 0.6 em and a little room
	textHeight = 14  // the box of a line of text, ascent and descent
)

// textWidth is the width a label takes.
func textWidth(s string) int {
	return int(float64(utf8.RuneCountInString(s))*charWidth + 0.999)
}

// box is a rectangle [x0,x1]×[y0,y1] of the drawing, for the layout and its
// tests.
type box struct{ x0, y0, x1, y1 int }

// intersects reports whether the interiors of a and b meet.
func (a box) intersects(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// contains reports whether b lies inside a (borders may touch).
func (a box) contains(b box) bool {
	return a.x0 <= b.x0 && b.x1 <= a.x1 && a.y0 <= b.y0 && b.y1 <= a.y1
}

// canvas collects the shapes of a drawing in drawing order, with the boxes
// the layout promises to keep apart: labels never meet, frames nest.
type canvas struct {
	back   []string // drawn first: frames, lifelines
	shapes []string // then: arrows, events, text
	labels []box    // text
	frames []box    // combined fragments and other framed areas
	width  int
	height int
}

func (c *canvas) add(format string, args ...any) {
	c.shapes = append(c.shapes, fmt.Sprintf(format, args...))
}

// under adds a shape to the back layer, under every shape of add.
func (c *canvas) under(format string, args ...any) {
	c.back = append(c.back, fmt.Sprintf(format, args...))
}

// text draws a label whose left end is at x (anchor "start"), its middle
// (anchor "middle") or its right end ("end"), its box from y to
// y+textHeight. It returns the box.
func (c *canvas) text(x, y int, anchor, class, s string) box {
	w := textWidth(s)
	b := box{x, y, x + w, y + textHeight}
	switch anchor {
	case "middle":
		b.x0, b.x1 = x-w/2, x-w/2+w
	case "end":
		b.x0, b.x1 = x-w, x
	}
	c.labels = append(c.labels, b)
	c.add(`<text x="%d" y="%d" text-anchor="%s" class="%s">%s</text>`, x, y+textHeight-3, anchor, class, escape(s))
	return b
}

func (c *canvas) line(x0, y0, x1, y1 int, class string) {
	c.add(`<line x1="%d" y1="%d" x2="%d" y2="%d" class="%s"/>`, x0, y0, x1, y1, class)
}

// arrow draws a line with an arrowhead at (x1,y1): marker "open"
// (asynchronous), "filled" (synchronous).
func (c *canvas) arrow(x0, y0, x1, y1 int, class, marker string) {
	c.add(`<line x1="%d" y1="%d" x2="%d" y2="%d" class="%s" marker-end="url(#%s)"/>`, x0, y0, x1, y1, class, marker)
}

func (c *canvas) rect(b box, class string) {
	c.under(`<rect x="%d" y="%d" width="%d" height="%d" class="%s"/>`, b.x0, b.y0, b.x1-b.x0, b.y1-b.y0, class)
}

func (c *canvas) dot(x, y, r int, class string) {
	c.add(`<circle cx="%d" cy="%d" r="%d" class="%s"/>`, x, y, r, class)
}

// frame draws a combined fragment's box with its operator in a tab at the
// top left, and records it.
func (c *canvas) frame(b box, label, class string) {
	c.frames = append(c.frames, b)
	c.rect(b, "frame "+class)
	w := textWidth(label) + 12
	c.under(`<path d="M%d %d h%d v%d l-6 6 h-%d z" class="tab"/>`, b.x0, b.y0, w, tabHeight-6, w-6)
	c.text(b.x0+5, b.y0+2, "start", "op", label)
}

// style is the stylesheet of every drawing: no external font, image or
// script, so that a drawing is one self-contained file.
const style = `
text{font-family:"DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:12px;fill:#222;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
.title{font-weight:bold}
.lifeline{stroke:#999;stroke-dasharray:4 3}
.head{fill:#eef3fb;stroke:#4a6fa5}
.group{fill:none;stroke:#4a6fa5;stroke-dasharray:2 2}
.msg{stroke:#222;stroke-width:1.2}
.synch{stroke:#222;stroke-width:2.4}
.frame{fill:none;stroke:#555}
.tab{fill:#f1f1f1;stroke:#555}
.op{font-weight:bold}
.sep{stroke:#555;stroke-dasharray:6 4}
.coreg{fill:none;stroke:#a0522d;stroke-width:2}
.env{fill:#222}
.gate{fill:#555;font-style:italic}
.act{fill:#f4f4f4;stroke:#222}
.event{fill:#222}
.sim{fill:#fff;stroke:#888;stroke-dasharray:2 2}
.simtext{fill:#888;font-style:italic}
.simmsg{stroke:#888;stroke-width:1.2;stroke-dasharray:5 3}
.stuck{fill:#c62828}
.stucktext{fill:#c62828;font-weight:bold}
.expected{fill:#fff;stroke:#2e7d32;stroke-dasharray:3 2}
.expectedtext{fill:#2e7d32}
.rest{fill:#bbb}
.resttext{fill:#999}
.pass{fill:#2e7d32}
.weakpass{fill:#558b2f}
.fail{fill:#c62828}
.inconc{fill:#ef6c00}
`

// markers are the arrowheads: open for asynchronous messages, filled for
// synchronous ones, grey for simulated ones.
const markers = `<marker id="open" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0 0 L10 5 L0 10" fill="none" stroke="#222" stroke-width="1.5"/></marker>` +
	`<marker id="filled" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="#222"/></marker>` +
	`<marker id="grey" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0 0 L10 5 L0 10" fill="none" stroke="#888" stroke-width="1.5"/></marker>`

// svg returns the drawing as one SVG document, title as its accessible
// name.
func (c *canvas) svg(title string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">`+"\n", c.width, c.height, c.width, c.height)
	fmt.Fprintf(&b, "<title>%s</title>\n", escape(title))
	b.WriteString("<style>" + style + "</style>\n")
	b.WriteString("<defs>" + markers + "</defs>\n")
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#fff"/>`+"\n", c.width, c.height)
	for _, s := range c.back {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	for _, s := range c.shapes {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// escape writes s as XML character data or an attribute value.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			if r < 0x20 && r != '\t' && r != '\n' || r == 0xFFFE || r == 0xFFFF {
				b.WriteRune('\uFFFD') // not XML
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
