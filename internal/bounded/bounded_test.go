package bounded

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		n, max int64
		over   bool
	}{{0, 0, false}, {5, 5, false}, {6, 5, true}, {1 << 20, 10, true}, {10, 1 << 20, false}} {
		data, over, err := Read(bytes.NewReader(make([]byte, tc.n)), tc.max)
		if err != nil || over != tc.over {
			t.Errorf("%d bytes, max %d: over %v, err %v; want over %v", tc.n, tc.max, over, err, tc.over)
		}
		// Never more than one byte past the bound in memory.
		if want := min(tc.n, tc.max+1); int64(len(data)) != want {
			t.Errorf("%d bytes, max %d: read %d, want %d", tc.n, tc.max, len(data), want)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, over, err := ReadFile(small, 5); err != nil || over || string(data) != "hello" {
		t.Errorf("small: %q, over %v, err %v", data, over, err)
	}
	// A sparse file far over the bound is refused from its size, unread.
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if data, over, err := ReadFile(big, 1<<20); err != nil || !over || data != nil {
		t.Errorf("big: %d bytes, over %v, err %v", len(data), over, err)
	}
	if _, _, err := ReadFile(filepath.Join(dir, "missing"), 5); !os.IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
}
