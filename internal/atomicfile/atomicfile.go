// Package atomicfile replaces files atomically, so that a reader, or the
// file system after a crash, sees either the old content or the new one,
// never a truncated or half-written file. ivc writes every file it
// produces or rewrites (ivc fmt -w, compiled packages, generated
// multi-traces, drawings) through it:
//
//	err := atomicfile.WriteFile("abp.hif", formatted, 0o644)
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// maxLinks bounds the symbolic links followed from one path, as the
// kernel does, so that a loop of links ends in an error.
const maxLinks = 40

// rename is os.Rename, a variable so that tests can make the last step
// fail.
var rename = os.Rename

// temps are the temporary files being written, which RemoveTemps removes.
var temps struct {
	sync.Mutex
	names map[string]bool
}

// RemoveTemps removes the temporary files of the writes under way, for a
// program interrupted (SIGINT) before they end: no hidden .NAME.tmpNNN is
// left behind. The files they replace are left as they were.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}

func track(name string, on bool) {
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	if on {
		temps.names[name] = true
	} else {
		delete(temps.names, name)
	}
}

// WriteFile writes data to the file at path, replacing its content
// atomically: it writes a temporary file in the same directory, syncs it
// to disk, gives it the mode of the file it replaces (perm when there is
// none yet, exactly: the umask does not apply) and renames it over the
// file. A symbolic link is followed, so that its target is rewritten and
// the link stays. On any error the file is left as it was and the
// temporary file is removed; the error is an *fs.PathError naming path.
//
// As with any rename, the new file is a new inode: hard links to the old
// one keep the old content, and the owner is the writer's.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	mode := perm
	if fi, err := os.Stat(target); err == nil {
		if fi.IsDir() {
			return &fs.PathError{Op: "write", Path: path, Err: errors.New("is a directory")}
		}
		mode = fi.Mode()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return &fs.PathError{Op: "write", Path: path, Err: unwrap(err)}
	}
	if err := replace(target, data, mode.Perm()); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: unwrap(err)}
	}
	return nil
}

// replace writes data to a new file beside target, with mode perm, and
// renames it over target; on an error it removes the new file.
func replace(target string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(target)
	t, err := createTemp(dir, base)
	if err != nil {
		return err
	}
	if _, err := t.Write(data); err != nil {
		t.Abort()
		return err
	}
	return t.commit(target, perm)
}

// A Temp is a temporary file being written, for output streamed to a
// file whose name or content is known only at the end (a rotated log):
// Commit renames it to its name, Abort removes it, and so does
// RemoveTemps when the program is interrupted before either.
type Temp struct {
	*os.File
}

// CreateTemp creates a hidden temporary file in dir, to be committed to a
// name in dir.
func CreateTemp(dir string) (*Temp, error) {
	return createTemp(dir, "ivc")
}

func createTemp(dir, base string) (*Temp, error) {
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return nil, err
	}
	track(f.Name(), true)
	return &Temp{f}, nil
}

// Abort closes and removes the temporary file.
func (t *Temp) Abort() {
	t.Close() // a second Close only fails, harmlessly
	os.Remove(t.Name())
	track(t.Name(), false)
}

// Commit syncs and closes the temporary file and renames it to path, as
// WriteFile writes path (a symbolic link followed, the mode of the file
// replaced or perm); on any error it removes the temporary file.
func (t *Temp) Commit(path string, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		t.Abort()
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	mode := perm
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode()
	}
	if err := t.commit(target, mode.Perm()); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: unwrap(err)}
	}
	return nil
}

func (t *Temp) commit(target string, perm fs.FileMode) (err error) {
	defer func() {
		if err != nil {
			t.Abort()
		}
		track(t.Name(), false)
	}()
	if err := t.Sync(); err != nil {
		return err
	}
	if err := t.Close(); err != nil {
		return err
	}
	if err := os.Chmod(t.Name(), perm); err != nil {
		return err
	}
	return rename(t.Name(), target)
}

// resolve returns the file that writing to path must replace: path with
// its symbolic links followed, or, for a file that does not exist yet,
// where it is to be created (through a dangling link too, as os.WriteFile
// would).
func resolve(path string) (string, error) {
	for range maxLinks {
		real, err := filepath.EvalSymlinks(path)
		if err == nil {
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", unwrap(err)
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return path, nil // not a link: a new file (or a missing directory, reported when the file is created)
		}
		if !filepath.IsAbs(dest) {
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				return "", unwrap(err)
			}
			dest = filepath.Join(dir, dest)
		}
		path = dest
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// unwrap returns the reason of a *fs.PathError or *os.LinkError, whose
// paths would otherwise name the temporary file or repeat the target.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
