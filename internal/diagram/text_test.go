package diagram

import "testing"

func TestMermaidText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a;b#c:d<b>", "a#59;b#35;c#58;d#lt;b#gt;"},
		{" 50% ", "#32;50#37;#32;"},
		{"wrap:x", "wrap#58;x"},
	} {
		got := mermaidText(c.in)
		if got != c.want {
			t.Errorf("mermaidText(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := mermaidDecode(got); back != c.in {
			t.Errorf("mermaidDecode(%q) = %q, want %q", got, back, c.in)
		}
	}
}
