package orbit

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// TLE is one NORAD two-line element set (Space-Track's format; the column
// layout is in Vallado et al. 2006, appendix "TLE format", and CelesTrak's
// "NORAD Two-Line Element Set Format"). Angles are in degrees and mean
// motion in revolutions per day, as written in the set.
type TLE struct {
	Name           string    // from an optional title line (three-line form)
	SatNum         int       // catalogue number (Alpha-5 decoded)
	Classification byte      // U, C or S
	IntlDesignator string    // e.g. 98067A
	Epoch          time.Time // UTC
	EpochYear      int       // four-digit year of the epoch
	EpochDay       float64   // day of year with fraction, 1.0 = 1 Jan 0h
	NDot           float64   // first derivative of mean motion / 2, rev/day²
	NDDot          float64   // second derivative of mean motion / 6, rev/day³
	BStar          float64   // drag term, 1/Earth radii
	ElementNumber  int
	Inclination    float64 // degrees
	RAAN           float64 // right ascension of the ascending node, degrees
	Eccentricity   float64
	ArgPerigee     float64 // degrees
	MeanAnomaly    float64 // degrees
	MeanMotion     float64 // revolutions per day (Kozai mean motion)
	RevNumber      int
}

// TLEError is a malformed element set: which line (1 or 2), which
// 1-based column, which field, and what was wrong.
type TLEError struct {
	Line, Column int
	Field        string
	Msg          string
}

func (e *TLEError) Error() string {
	return fmt.Sprintf("tle line %d column %d (%s): %s", e.Line, e.Column, e.Field, e.Msg)
}

// tleLineLen is the length of a TLE line up to and including its checksum
// column. Text after column 69 (the verification set appends start, stop
// and step times there) is ignored.
const tleLineLen = 69

// field is a TLE field: its name and 1-based inclusive columns.
type field struct {
	name     string
	from, to int
}

func (f field) of(line string) string { return line[f.from-1 : f.to] }

var (
	fSatNum1   = field{"catalogue number", 3, 7}
	fClass     = field{"classification", 8, 8}
	fIntl      = field{"international designator", 10, 17}
	fEpochYear = field{"epoch year", 19, 20}
	fEpochDay  = field{"epoch day", 21, 32}
	fNDot      = field{"mean motion derivative", 34, 43}
	fNDDot     = field{"mean motion second derivative", 45, 52}
	fBStar     = field{"bstar", 54, 61}
	fElemNum   = field{"element set number", 65, 68}
	fChecksum  = field{"checksum", 69, 69}
	fSatNum2   = field{"catalogue number", 3, 7}
	fIncl      = field{"inclination", 9, 16}
	fRAAN      = field{"right ascension of ascending node", 18, 25}
	fEcc       = field{"eccentricity", 27, 33}
	fArgP      = field{"argument of perigee", 35, 42}
	fMeanAnom  = field{"mean anomaly", 44, 51}
	fMeanMot   = field{"mean motion", 53, 63}
	fRevNum    = field{"revolution number", 64, 68}
)

// ParseTLE parses the two lines of an element set, validating each line's
// number, length, checksum (column 69: the sum of the digits, each '-'
// counting 1, modulo 10) and every numeric field.
func ParseTLE(line1, line2 string) (TLE, error) {
	var t TLE
	line1 = strings.TrimRight(line1, "\r\n")
	line2 = strings.TrimRight(line2, "\r\n")
	for i, l := range []string{line1, line2} {
		n := i + 1
		if len(l) < tleLineLen {
			return t, &TLEError{n, len(l) + 1, "length", fmt.Sprintf("line has %d characters, want %d", len(l), tleLineLen)}
		}
		if l[0] != byte('0'+n) {
			return t, &TLEError{n, 1, "line number", fmt.Sprintf("got %q, want %q", l[0], rune('0'+n))}
		}
		if err := checkChecksum(n, l); err != nil {
			return t, err
		}
	}
	p := tleParser{}
	p.line, p.text = 1, line1
	t.SatNum = p.satNum(fSatNum1)
	t.Classification = line1[7]
	t.IntlDesignator = strings.TrimSpace(fIntl.of(line1))
	yy := p.int(fEpochYear, false)
	t.EpochDay = p.float(fEpochDay)
	t.NDot = p.float(fNDot)
	t.NDDot = p.implied(fNDDot)
	t.BStar = p.implied(fBStar)
	t.ElementNumber = p.int(fElemNum, true)
	p.line, p.text = 2, line2
	if n2 := p.satNum(fSatNum2); p.err == nil && n2 != t.SatNum {
		p.fail(fSatNum2, fmt.Sprintf("%d differs from line 1's %d", n2, t.SatNum))
	}
	t.Inclination = p.float(fIncl)
	t.RAAN = p.float(fRAAN)
	t.Eccentricity = p.implied(field{fEcc.name, fEcc.from, fEcc.to})
	t.ArgPerigee = p.float(fArgP)
	t.MeanAnomaly = p.float(fMeanAnom)
	t.MeanMotion = p.float(fMeanMot)
	t.RevNumber = p.int(fRevNum, true)
	if p.err != nil {
		return TLE{}, p.err
	}
	// Two-digit years: 57–99 are 1957–1999, 00–56 are 2000–2056
	// (Space-Track's convention; Sputnik flew in 1957).
	t.EpochYear = 1900 + yy
	if yy < 57 {
		t.EpochYear = 2000 + yy
	}
	if t.EpochDay < 1 || t.EpochDay >= 367 {
		return TLE{}, &TLEError{1, fEpochDay.from, fEpochDay.name, fmt.Sprintf("%v is outside 1 ≤ day < 367", t.EpochDay)}
	}
	dayNs := (t.EpochDay - 1) * 86400e9
	t.Epoch = time.Date(t.EpochYear, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(math.Round(dayNs)))
	if t.MeanMotion <= 0 {
		return TLE{}, &TLEError{2, fMeanMot.from, fMeanMot.name, fmt.Sprintf("%v rev/day, want > 0", t.MeanMotion)}
	}
	if t.Eccentricity >= 1 {
		return TLE{}, &TLEError{2, fEcc.from, fEcc.name, fmt.Sprintf("%v, want < 1", t.Eccentricity)}
	}
	return t, nil
}

// checkChecksum validates column 69 of line n.
func checkChecksum(n int, l string) error {
	sum := 0
	for i := 0; i < tleLineLen-1; i++ {
		switch c := l[i]; {
		case c >= '0' && c <= '9':
			sum += int(c - '0')
		case c == '-':
			sum++
		}
	}
	c := l[tleLineLen-1]
	if c < '0' || c > '9' {
		return &TLEError{n, tleLineLen, fChecksum.name, fmt.Sprintf("%q is not a digit", c)}
	}
	if int(c-'0') != sum%10 {
		return &TLEError{n, tleLineLen, fChecksum.name, fmt.Sprintf("got %c, want %d (allowed: the sum of the line's digits, each - counting 1, mod 10)", c, sum%10)}
	}
	return nil
}

// tleParser parses fields of one line, keeping the first error.
type tleParser struct {
	line int
	text string
	err  error
}

func (p *tleParser) fail(f field, msg string) {
	if p.err == nil {
		p.err = &TLEError{p.line, f.from, f.name, msg}
	}
}

func (p *tleParser) float(f field) float64 {
	s := strings.TrimSpace(f.of(p.text))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.fail(f, fmt.Sprintf("%q is not a number", s))
	}
	return v
}

func (p *tleParser) int(f field, blankOK bool) int {
	s := strings.TrimSpace(f.of(p.text))
	if s == "" && blankOK {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		p.fail(f, fmt.Sprintf("%q is not an integer", s))
	}
	return v
}

// implied parses a field with an implied leading decimal point and an
// optional signed power-of-ten exponent: " 28098-4" is 0.28098e-4,
// "-13525-3" is −0.13525e-3, "1859667" (eccentricity) is 0.1859667.
func (p *tleParser) implied(f field) float64 {
	s := f.of(p.text)
	mant, exp := s, "0"
	if n := len(s); n >= 2 && (s[n-2] == '-' || s[n-2] == '+') {
		mant, exp = s[:n-2], s[n-2:]
	}
	mant = strings.TrimSpace(mant)
	sign := ""
	if mant != "" && (mant[0] == '-' || mant[0] == '+') {
		sign, mant = mant[:1], mant[1:]
	}
	if mant == "" {
		mant = "0"
	}
	v, err := strconv.ParseFloat(sign+"0."+mant+"e"+strings.TrimSpace(exp), 64)
	if err != nil || strings.ContainsAny(mant, ".eE+-") {
		p.fail(f, fmt.Sprintf("%q is not an implied-decimal number like \" 12345-4\"", s))
	}
	return v
}

// satNum parses a catalogue number, decoding Alpha-5 (a leading letter
// A–Z without I and O stands for 10–33, so "A0000" is 100000).
func (p *tleParser) satNum(f field) int {
	s := strings.TrimSpace(f.of(p.text))
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' && s[0] != 'I' && s[0] != 'O' {
		d := int(s[0]-'A') + 10
		if s[0] > 'I' {
			d--
		}
		if s[0] > 'O' {
			d--
		}
		rest, err := strconv.Atoi(s[1:])
		if err != nil || len(s) != 5 {
			p.fail(f, fmt.Sprintf("%q is not a catalogue number", s))
		}
		return d*10000 + rest
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		p.fail(f, fmt.Sprintf("%q is not a catalogue number", s))
	}
	return v
}

// MaxTLEs bounds the element sets ReadTLEs accepts from one file: above
// the count of every catalogued object in orbit (tens of thousands), it
// keeps a runaway file's memory to tens of megabytes.
const MaxTLEs = 100_000

// ReadTLEs reads element sets from r: pairs of lines 1 and 2, each pair
// optionally preceded by a title line (the three-line form; a leading "0 "
// is dropped). Blank lines and lines starting with '#' are skipped. name
// labels errors: "name:LINE: tle line 1 column 69 (checksum): ...".
func ReadTLEs(r io.Reader, name string) ([]TLE, error) {
	sc := bufio.NewScanner(r)
	var out []TLE
	var title, first string
	firstAt, n := 0, 0
	for sc.Scan() {
		n++
		l := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "1 ") && first == "":
			first, firstAt = l, n
		case strings.HasPrefix(l, "2 ") && first != "":
			t, err := ParseTLE(first, l)
			if err != nil {
				at := firstAt
				var te *TLEError
				if asTLEError(err, &te) && te.Line == 2 {
					at = n
				}
				return nil, fmt.Errorf("%s:%d: %w", name, at, err)
			}
			if len(out) == MaxTLEs {
				return nil, fmt.Errorf("%s:%d: more than %d element sets (allowed: at most %d)", name, firstAt, MaxTLEs, MaxTLEs)
			}
			t.Name = title
			out = append(out, t)
			first, title = "", ""
		case first != "":
			return nil, fmt.Errorf("%s:%d: tle line 2 expected after line 1 at %d, got %q", name, n, firstAt, clip(l))
		default:
			title = strings.TrimSpace(strings.TrimPrefix(l, "0 "))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if first != "" {
		return nil, fmt.Errorf("%s:%d: tle line 1 without a line 2", name, firstAt)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no element sets (want lines starting \"1 \" and \"2 \")", name)
	}
	return out, nil
}

func asTLEError(err error, te **TLEError) bool {
	e, ok := err.(*TLEError)
	if ok {
		*te = e
	}
	return ok
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
