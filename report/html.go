package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"regexp"
)

// Report is a document: a title, provenance, and sections of text, tables
// and figures. The caller supplies everything that varies from run to run
// (version, inputs, generation time) in Meta; the package reads no clock.
type Report struct {
	Title    string
	Subtitle string
	Meta     []Meta
	Sections []Section
}

// Meta is one line of provenance, e.g. {"leolab", "v0.3.0"}, {"inputs", "…"}.
type Meta struct{ Key, Value string }

// Section is one part of the report: paragraphs, then tables, then figures.
type Section struct {
	Title   string
	Text    []string // plain-text paragraphs (escaped, not HTML)
	Tables  []Table
	Figures []*Figure
}

//go:embed report.html.tmpl
var reportTemplate string

// page is the template's view of a report.
type page struct {
	Title, Subtitle string
	Meta            []Meta
	Sections        []pageSection
}

type pageSection struct {
	ID, Title string
	Text      []string
	Tables    []pageTable
	Figures   []pageFigure
}

type pageTable struct {
	Title, CSV string
	Head       []Column
	Rows       [][]pageCell
}

type pageCell struct {
	Text string
	Num  bool
}

type pageFigure struct {
	Name, Caption string
	SVG           template.HTML
	Files         bool
}

// rendered holds a figure's bytes so Write renders each figure once.
type rendered struct{ svg, png []byte }

// RenderHTML writes the report as one self-contained HTML page: CSS and SVG
// figures inline, no scripts, no external resources.
func RenderHTML(w io.Writer, r *Report) error {
	figs, err := renderFigures(r, false)
	if err != nil {
		return err
	}
	return renderHTML(w, r, figs, false)
}

// renderHTML fills the template; files says whether sibling PNG/SVG/CSV
// files exist to link to.
func renderHTML(w io.Writer, r *Report, figs map[*Figure]rendered, files bool) error {
	tmpl, err := template.New("report").Parse(reportTemplate)
	if err != nil {
		panic("leolab BUG: report template: " + err.Error())
	}
	p := page{Title: r.Title, Subtitle: r.Subtitle, Meta: r.Meta}
	for si, s := range r.Sections {
		ps := pageSection{ID: fmt.Sprintf("s%d-%s", si+1, slug(s.Title)), Title: s.Title, Text: s.Text}
		for ti := range s.Tables {
			t := &s.Tables[ti]
			pt := pageTable{Title: t.Title, Head: t.Columns}
			if files {
				pt.CSV = t.name() + ".csv"
			}
			for _, row := range t.Rows {
				cells := make([]pageCell, len(row))
				for i, c := range row {
					cells[i] = pageCell{Text: c.html(t.Columns[i]), Num: c.kind != Text}
				}
				pt.Rows = append(pt.Rows, cells)
			}
			ps.Tables = append(ps.Tables, pt)
		}
		for _, f := range s.Figures {
			ps.Figures = append(ps.Figures, pageFigure{
				Name: f.Name, Caption: f.Caption, Files: files,
				SVG: template.HTML(inlineSVG(figs[f].svg)), // our own vgsvg output; its text is escaped by vgsvg
			})
		}
		p.Sections = append(p.Sections, ps)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, p); err != nil {
		return fmt.Errorf("report %q: html: %w", r.Title, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// renderFigures validates the report and renders every figure to SVG (and
// PNG when png is set), checking that figure and table names are unique.
func renderFigures(r *Report, png bool) (map[*Figure]rendered, error) {
	figs := map[*Figure]rendered{}
	names := map[string]string{}
	claim := func(name, what string) error {
		if prev, ok := names[name]; ok {
			return fmt.Errorf("report %q: %s and %s share the file name %q", r.Title, prev, what, name)
		}
		names[name] = what
		return nil
	}
	for si, s := range r.Sections {
		for ti := range s.Tables {
			t := &s.Tables[ti]
			if err := t.validate(); err != nil {
				return nil, fmt.Errorf("report %q: section %d: %w", r.Title, si+1, err)
			}
			if err := claim(t.name()+".csv", fmt.Sprintf("table %q", t.Title)); err != nil {
				return nil, err
			}
		}
		for fi, f := range s.Figures {
			if f == nil {
				return nil, fmt.Errorf("report %q: section %d: figure %d is nil", r.Title, si+1, fi)
			}
			if !isWord(f.Name, '-') {
				return nil, fmt.Errorf("report %q: figure %q: name %q: want [a-z0-9-]+", r.Title, f.Title(), f.Name)
			}
			if err := claim(f.Name, fmt.Sprintf("figure %q", f.Title())); err != nil {
				return nil, err
			}
			var out rendered
			var err error
			if out.svg, err = f.SVG(); err != nil {
				return nil, err
			}
			if png {
				if out.png, err = f.PNG(); err != nil {
					return nil, err
				}
			}
			figs[f] = out
		}
	}
	return figs, nil
}

// svgPrologue matches what precedes <svg in a vgsvg document (XML
// declaration and comment); svgNamespaces matches the namespace attributes,
// which HTML5 does not need for inline SVG and which would put URLs in the page.
var (
	svgPrologue   = regexp.MustCompile(`(?s)\A.*?(<svg\b)`)
	svgNamespaces = regexp.MustCompile(`\s+xmlns(:\w+)?="[^"]*"`)
)

// inlineSVG turns a standalone SVG document into an element for HTML.
func inlineSVG(svg []byte) string {
	s := svgPrologue.ReplaceAll(svg, []byte("$1"))
	return string(svgNamespaces.ReplaceAll(s, nil))
}
