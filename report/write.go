package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Output file names and permissions.
const (
	// HTMLFile is the report's page inside the output directory.
	HTMLFile = "report.html"
	dirPerm  = 0o755
	filePerm = 0o644
)

// Write renders the report into dir (created if missing): report.html with
// every figure inlined as SVG, plus NAME.png and NAME.svg for every figure
// and NAME.csv for every table, linked from the page. Names must be unique
// within the report; nothing is written if any figure or table is invalid.
func Write(dir string, r *Report) error {
	figs, err := renderFigures(r, true)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := renderHTML(&page, r, figs, true); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("report %q: %w", r.Title, err)
	}
	for f, out := range figs {
		if err := writeFile(dir, f.Name+".svg", out.svg); err != nil {
			return err
		}
		if err := writeFile(dir, f.Name+".png", out.png); err != nil {
			return err
		}
	}
	for _, s := range r.Sections {
		for ti := range s.Tables {
			var b bytes.Buffer
			if err := WriteCSV(&b, &s.Tables[ti]); err != nil {
				return err
			}
			if err := writeFile(dir, s.Tables[ti].name()+".csv", b.Bytes()); err != nil {
				return err
			}
		}
	}
	return writeFile(dir, HTMLFile, page.Bytes())
}

func writeFile(dir, name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(dir, name), data, filePerm); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
