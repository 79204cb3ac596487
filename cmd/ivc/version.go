package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version returns what ivc --version prints: the module version of ivc and
// the revision of the source it was built from, as the go command recorded
// them in the binary (debug.ReadBuildInfo).
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: built without module information)"
	}
	return versionOf(bi)
}

// versionOf returns the version line of a build: "v1.2.0", or for a build
// from a clone "v0.0.0-20261127...-344fe13a+dirty (revision 344fe13a...,
// modified, 2026-11-27T18:00:00Z)", then the Go version.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var b strings.Builder
	b.WriteString(v)
	if rev != "" {
		fmt.Fprintf(&b, " (revision %s", rev)
		if modified {
			b.WriteString(", modified")
		}
		if at != "" {
			fmt.Fprintf(&b, ", %s", at)
		}
		b.WriteString(")")
	}
	if bi.GoVersion != "" {
		fmt.Fprintf(&b, ", %s", bi.GoVersion)
	}
	return b.String()
}
