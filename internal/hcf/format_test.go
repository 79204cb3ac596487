package hcf

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Format's output for a file using every option, pinned in a golden file.
func TestFormatGolden(t *testing.T) {
	f := parseFile(t, "testdata/all_options.hcf")
	got := Format(f)
	const golden = "testdata/all_options.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Format differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	// The golden text is canonical: it formats to itself.
	if again := Format(parseFile(t, golden)); string(again) != string(want) {
		t.Errorf("%s is not a fixed point of Format:\n%s", golden, again)
	}
}

// TestSpellingsKeepComments: a comment after any declaration is kept.
func TestSpellingsKeepComments(t *testing.T) {
	for _, tc := range spellings {
		src := "@" + tc.section + "_option{ " + tc.src + " /* kept */ }"
		f, err := Parse("c.hcf", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := string(Format(f)); !strings.Contains(got, "/* kept */") {
			t.Errorf("%s: comment dropped:\n%s", src, got)
		}
	}
}

// TestFormatKeepsComments: Parse keeps the comments with the nearest
// section or option, and Format prints them back there, moving them with
// their option (ivc fmt -w used to delete them).
func TestFormatKeepsComments(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"around sections", "/* head */\n@analyze_option{ goal = Pass } /* a */\n/* b */\n@explore_option{}\n/* end */",
			"/* head */\n@analyze_option{\n\tgoal = Pass;\n} /* a */\n\n/* b */\n@explore_option{\n}\n/* end */\n"},
		{"around options, which move", "@analyze_option{\n  /* por */ por = false; /* off */\n  strategy = DFS /* dfs */\n  /* last */\n}",
			"@analyze_option{\n\tstrategy = DFS; /* dfs */\n\t/* por */\n\tpartial_order_reduction = false; /* off */\n\t/* last */\n}\n"},
		{"inside a value", "@analyze_option{ filters = [ /* few */ max_depth = 3] }",
			"@analyze_option{\n\tfilters = [max_depth=3]; /* few */\n}\n"},
		{"no section", "/* nothing */\n", "/* nothing */\n"},
		{"an option that sets nothing", "@explore_option{ /* none */ filters = [] /* at all */; memoize = true }",
			"@explore_option{\n\tmemoize = true;\n\t/* none */\n\t/* at all */\n}\n"},
	} {
		f, err := Parse("c.hcf", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := string(Format(f))
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		again, err := Parse("c.hcf", []byte(got))
		if err != nil || string(Format(again)) != got {
			t.Errorf("%s: not a fixed point (%v)", tc.name, err)
		}
	}
}
