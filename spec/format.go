package spec

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/hcf"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// Extensions are the file name extensions Format knows, in the order its
// errors list them.
var Extensions = []string{".hsf", ".hif", ".htf", ".hcf"}

// Format returns the canonical form of a HIBOU source file, chosen by the
// extension of path:
//
//   - .hsf: the signature sections in source order; a legacy single-file .hsf
//     starts with its option sections (in today's spelling, see hcf.Format)
//     and ends with its interaction, checked against its own signature;
//   - .hif: the interaction (see interaction.FormatHIF), its names checked
//     against sig when sig is not nil;
//   - .htf: the multi-trace as written, syntax only (see multitrace.Format);
//   - .hcf: the option sections (see hcf.Format).
//
// Errors name path:line:col. The result parses back to the same file, and
// formatting it again changes nothing.
func Format(path string, src []byte, sig *interaction.Signature) ([]byte, error) {
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
		f, err := multitrace.Parse(path, src)
		if err != nil {
			return nil, err
		}
		return multitrace.Format(f), nil
	case ".hcf":
		f, err := hcf.Parse(path, src)
		if err != nil {
			return nil, err
		}
		return hcf.Format(f), nil
	default:
		return nil, fmt.Errorf("%s: unknown kind of file %q (want %s)", FileName(path), ext, strings.Join(Extensions, ", "))
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
	opts, err := LegacyOptions(path, src, sf)
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
		b.Write(hcf.Format(opts))
	}
	b.Write(interaction.FormatHSF(sf))
	return b.Bytes(), nil
}
