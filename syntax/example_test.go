package syntax_test

import (
	"errors"
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// The parsers return *syntax.Error values: errors.As finds the position.
func ExampleError() {
	_, err := interaction.ParseHIF("abp.hif", []byte("seq(\n  a -- m -> b,\n  a -- n b\n)"))
	fmt.Println(err)
	var se *syntax.Error
	if errors.As(err, &se) {
		fmt.Println(se.File, se.Pos.Line, se.Pos.Col)
	}
	// Output:
	// abp.hif:3:10: expected '->' after message "n", found name "b"
	// abp.hif 3 10
}
