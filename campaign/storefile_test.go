package campaign

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// storedFile writes a store holding one run and closes it (the log is
// checkpointed into the file), returning its path and size.
func storedFile(t *testing.T) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	r := mustExpand(t, smallCampaign)[0]
	if _, err := st.Put(context.Background(), r, simulate(t, r)); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatalf("the log outlived Close: the size check would be skipped")
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, fi.Size()
}

// TestStoreFileProblemsAreReported: issue 18 — a store truncated to 0
// bytes silently lost its runs (SQLite reads it as an empty database and
// the campaign started over), and `status`/`report` with a mistyped
// --store created an empty store. Each case is now its own error.
func TestStoreFileProblemsAreReported(t *testing.T) {
	path, size := storedFile(t)
	st, err := OpenExistingStore(path)
	if err != nil {
		t.Fatalf("a good store: %v", err)
	}
	if runs, _, _, err := st.Count(context.Background()); err != nil || runs != 1 {
		t.Fatalf("good store holds %d runs, %v", runs, err)
	}
	st.Close()

	for _, tc := range []struct {
		name string
		cut  func(string) error
		want error
	}{
		{"truncated to 0 bytes", func(p string) error { return os.Truncate(p, 0) }, ErrStoreEmpty},
		{"truncated to half", func(p string) error { return os.Truncate(p, size/2) }, ErrStoreTruncated},
		{"truncated in the header", func(p string) error { return os.Truncate(p, 40) }, ErrStoreTruncated},
		{"not SQLite", func(p string) error { return os.WriteFile(p, []byte("runs: 3\n"), 0o644) }, ErrStoreNotSQLite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := storedFile(t)
			if err := tc.cut(p); err != nil {
				t.Fatal(err)
			}
			for _, open := range []func(string) (*Store, error){OpenStore, OpenExistingStore} {
				st, err := open(p)
				if !errors.Is(err, tc.want) {
					if st != nil {
						st.Close()
					}
					t.Fatalf("open = %v, want %v", err, tc.want)
				}
			}
		})
	}

	missing := filepath.Join(t.TempDir(), "typo.db")
	if _, err := OpenExistingStore(missing); !errors.Is(err, ErrStoreMissing) {
		t.Fatalf("missing store: %v, want ErrStoreMissing", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("opening a missing store for reading created it")
	}
	st, err = OpenStore(missing) // campaign run starts a new store
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	// ...made under a private name and linked into place: nothing is left
	// beside it, and it was never a 0-byte file at its own name.
	left, _ := filepath.Glob(missing + ".new-*")
	if len(left) != 0 {
		t.Fatalf("creation left %v", left)
	}
	if err := checkStoreFile(missing); err != nil {
		t.Fatalf("the new store: %v", err)
	}
}
