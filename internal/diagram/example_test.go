package diagram_test

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/diagram"
)

// An interaction as Mermaid text, which GitHub and GitLab render in
// Markdown.
func ExampleFormatMermaid() {
	sig, _ := interaction.NewSignature([]string{"client", "server"}, []string{"req", "resp", "busy"}, nil)
	n, err := interaction.ParseHIF("rpc.hif", []byte("seq(client -- req -> server, alt(server -- resp -> client, server -- busy -> client))"))
	if err != nil {
		panic(err) // a *syntax.Error at rpc.hif:line:col
	}
	fmt.Print(diagram.FormatMermaid(sig, n, "rpc"))
	// Output:
	// sequenceDiagram
	//     title rpc
	//     participant L0 as client
	//     participant L1 as server
	//     L0-)L1: req
	//     alt
	//         L1-)L0: resp
	//     else
	//         L1-)L0: busy
	//     end
}
