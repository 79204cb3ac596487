// Package spec loads a specification — a signature and an interaction — from
// HIBOU files: a .hsf signature with the .hif interaction beside it (or given
// explicitly), or a legacy single-file .hsf that holds both.
//
//	sp, err := spec.Load("abp.hsf", "") // reads abp.hsf and abp.hif
//	a := runtime.New(sp.Store, sp.Root, runtime.DefaultOptions())
package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// Spec is a loaded specification.
type Spec struct {
	SigPath string // the .hsf file
	HIFPath string // the .hif file, or SigPath for a legacy single-file .hsf

	Sig     *interaction.Signature
	SigFile *interaction.SigFile
	Store   *interaction.Store
	Root    interaction.Term
	Syntax  *interaction.Node
}

// Load reads the signature at hsf and the interaction at hif. When hif is
// empty, the interaction is taken from a legacy single-file hsf, or else from
// the .hif file of the same name beside hsf.
func Load(hsf, hif string) (*Spec, error) {
	src, err := os.ReadFile(hsf)
	if err != nil {
		return nil, err
	}
	sf, err := interaction.ParseHSF(hsf, src)
	if err != nil {
		return nil, err
	}
	sig, err := sf.Signature(hsf)
	if err != nil {
		return nil, err
	}
	sp := &Spec{SigPath: hsf, Sig: sig, SigFile: sf, Store: interaction.NewStore(sig)}
	node := sf.Interaction
	switch {
	case hif != "":
		if node != nil {
			return nil, fmt.Errorf("%s: holds an interaction (legacy single-file .hsf): do not also give %s", hsf, hif)
		}
	case node != nil:
		sp.HIFPath = hsf
	default:
		hif = strings.TrimSuffix(hsf, filepath.Ext(hsf)) + ".hif"
		if _, err := os.Stat(hif); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no interaction: give a .hif file (none found at %s)", hsf, hif)
		}
	}
	if node == nil {
		src, err := os.ReadFile(hif)
		if err != nil {
			return nil, err
		}
		if node, err = interaction.ParseHIF(hif, src); err != nil {
			return nil, err
		}
		sp.HIFPath = hif
	}
	sp.Syntax = node
	if sp.Root, err = sp.Store.Resolve(sp.HIFPath, node); err != nil {
		return nil, err
	}
	return sp, nil
}
