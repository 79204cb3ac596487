package diagram

import (
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// operatorLabel names an operator node as a block's label: "alt", "loopW",
// "coreg(a,b)", "sync(a!m,b?m)".
func operatorLabel(n *interaction.Node) string {
	switch n.Kind {
	case interaction.NodeCoreg:
		var names []string
		for _, c := range n.Coreg {
			names = append(names, c.Text)
		}
		return "coreg(" + strings.Join(names, ",") + ")"
	case interaction.NodeSync:
		return "sync(" + strings.Join(actionTexts(n.Sync), ",") + ")"
	}
	return n.Op.String()
}

// actsLabel writes actions as {a!m,b?m}.
func actsLabel(acts []interaction.ActionSyntax) string {
	return "{" + strings.Join(actionTexts(acts), ",") + "}"
}

func actionTexts(acts []interaction.ActionSyntax) []string {
	texts := make([]string, len(acts))
	for i, a := range acts {
		texts[i] = a.String()
	}
	return texts
}
