package trace

import (
	"os"
	"path/filepath"
	"testing"
)

// exampleFile returns the path of a file of ../shared/data/leoreplayer-example
// (beside the module root, or in the nearest parent that has it: a git
// worktree sits deeper than the main checkout); it skips the test when the
// data is not there.
func exampleFile(t testing.TB, name string) string {
	t.Helper()
	rel := filepath.Join("shared/data/leoreplayer-example", name)
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("%s not found beside the module (../shared/data, see its README)", rel)
	return ""
}
