// Package pretty gives the canonical form of every kind of HIBOU source file
// (.hsf, .hif, .htf, .hcf), as ivc fmt writes it.
package pretty

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
)

// Extensions are the file name extensions File knows, in the order its
// errors list them.
var Extensions = []string{".hsf", ".hif", ".htf", ".hcf"}

// File returns the canonical form of a HIBOU source file, chosen by the
// extension of path:
//
//   - .hsf: the signature sections in source order; a legacy single-file .hsf
//     starts with its option sections (in today's spelling, see hcf.Format)
//     and ends with its interaction, checked against its own signature;
//   - .hif: the interaction (see interaction.FormatHIF), its names checked
//     against sig when sig is not nil;
//   - .htf: the multi-trace as written (see multitrace.FormatSource),
//     checked against sig as analyze checks it when sig is not nil;
//   - .hcf: the option sections (see hcf.Format).
//
// Errors name path:line:col. The result parses back to the same file, and
// formatting it again changes nothing. Comments are kept, next to the part
// of the file they were next to: a comment that the result would not hold
// is an error, never a loss.
func File(path string, src []byte, sig *interaction.Signature) ([]byte, error) {
	out, err := kind(path, src, sig)
	if err != nil {
		return nil, err
	}
	if err := keepsComments(path, src, out); err != nil {
		return nil, err
	}
	return out, nil
}

func kind(path string, src []byte, sig *interaction.Signature) ([]byte, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".hsf":
		return formatHSF(path, src)
	case ".hif":
		n, err := interaction.ParseHIF(path, src)
		if err != nil {
			return nil, err
		}
		if sig != nil {
			if _, err := interaction.NewStore(sig).Resolve(path, n); err != nil {
				return nil, err
			}
		}
		return interaction.FormatHIF(n), nil
	case ".htf":
		if sig != nil {
			// What analyze checks, so that fmt accepts what it accepts.
			if _, err := multitrace.ParseResolve(path, src, sig); err != nil {
				return nil, err
			}
		}
		return multitrace.FormatSource(path, src)
	case ".hcf":
		f, err := hcf.Parse(path, src)
		if err != nil {
			return nil, err
		}
		return hcf.Format(f), nil
	default:
		return nil, fmt.Errorf("%s: unknown kind of file %q (want %s)", syntax.FileName(path), ext, strings.Join(Extensions, ", "))
	}
}

func formatHSF(path string, src []byte) ([]byte, error) {
	sf, err := interaction.ParseHSF(path, src)
	if err != nil {
		return nil, err
	}
	// A name declared twice is kept as written (the first declaration
	// counts); the commands that load the signature warn about it.
	sig, _, err := sf.Signature(path)
	if err != nil {
		return nil, err
	}
	opts, err := spec.LegacyOptions(path, src, sf)
	if err != nil {
		return nil, err
	}
	if sf.Interaction != nil {
		if _, err := interaction.NewStore(sig).Resolve(path, sf.Interaction); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	if opts != nil {
		// The option sections come first: so does the comment that
		// starts the file, whatever section it stands before.
		if len(sf.Sections) > 0 && sf.Sections[0].Comments != nil && sf.Sections[0].Pos.Offset < sf.Options[0].Start.Offset {
			first := &sf.Sections[0]
			sec := opts.Sections[0]
			if sec.Comments == nil {
				sec.Comments = &syntax.Comments{}
			}
			sec.Comments.Before = append(first.Comments.Before, sec.Comments.Before...)
			first.Comments.Before = nil
		}
		b.Write(hcf.Format(opts))
	}
	b.Write(interaction.FormatHSF(sf))
	return b.Bytes(), nil
}

// keepsComments reports the first comment of src that out lacks: File
// keeps every comment, and says so rather than drop one if a formatter
// ever failed to. src and out are files of a HIBOU format that parsed, so
// "/*" starts a comment wherever it is outside one.
func keepsComments(path string, src, out []byte) error {
	count := map[string]int{}
	for _, c := range comments(out) {
		count[string(out[c:commentEnd(out, c)])]++
	}
	for _, c := range comments(src) {
		text := string(src[c:commentEnd(src, c)])
		if count[text] == 0 {
			line := bytes.Count(src[:c], []byte("\n")) + 1
			col := c - (bytes.LastIndexByte(src[:c], '\n') + 1) + 1
			return fmt.Errorf("%s:%d:%d: ivc cannot keep this comment in the canonical form: please report it, and move the comment meanwhile", syntax.FileName(path), line, col)
		}
		count[text]--
	}
	return nil
}

// comments returns the offsets of the comments of src.
func comments(src []byte) []int {
	var offs []int
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("/*"))
		if k < 0 {
			return offs
		}
		offs = append(offs, i+k)
		i = commentEnd(src, i+k)
	}
}

// commentEnd returns the offset after the comment at off.
func commentEnd(src []byte, off int) int {
	k := bytes.Index(src[off+2:], []byte("*/"))
	if k < 0 {
		return len(src)
	}
	return off + 2 + k + 2
}
