package profile

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Profile names.
const (
	// NameStarlink is the Starlink model of seed 000's dish (UTA-232 in
	// Melbourne): seed 001's defaults, then the site block of
	// cities.yaml fitted to seed 000's measurements, then a city's
	// terrestrial leg.
	NameStarlink = "starlink"
	// NameStarlinkSeed001 is seed 001's published values as they are
	// (its own dish and PoP), without the Melbourne site block: a city
	// adds only its terrestrial leg.
	NameStarlinkSeed001 = "starlink-seed001"
	NameFixed           = "fixed"
)

// Names returns the built-in profile names, sorted.
func Names() []string { return []string{NameFixed, NameStarlink, NameStarlinkSeed001} }

// IsStarlink reports whether name is one of the Starlink model's profiles.
func IsStarlink(name string) bool { return name == NameStarlink || name == NameStarlinkSeed001 }

// cityFile is the shape of cities.yaml.
type cityFile struct {
	Site   map[string]any      `yaml:"site"`
	Cities map[string]cityInfo `yaml:"cities"`
}

type cityInfo struct {
	IdleRTT   string         `yaml:"idle_rtt"`
	Overrides map[string]any `yaml:"overrides"`
}

func readCities() (cityFile, error) {
	var cf cityFile
	data, err := files.ReadFile("profiles/cities.yaml")
	if err == nil {
		err = yaml.Unmarshal(data, &cf)
	}
	if err != nil {
		return cf, fmt.Errorf("leolab BUG: embedded cities.yaml: %w", err)
	}
	return cf, nil
}

// Cities returns the city names, sorted.
func Cities() []string {
	cf, err := readCities()
	if err != nil {
		panic(err.Error())
	}
	return slices.Sorted(maps.Keys(cf.Cities))
}

// CityIdleRTT is the minimum end-to-end RTT observed for a city in the real
// data, which the city profile is built to reproduce.
func CityIdleRTT(city string) (time.Duration, error) {
	cf, err := readCities()
	if err != nil {
		return 0, err
	}
	ci, ok := cf.Cities[city]
	if !ok {
		return 0, unknownCity(city)
	}
	return ParseDuration(ci.IdleRTT)
}

func unknownCity(city string) error {
	return fmt.Errorf("city: unknown city %q (allowed: %s)", city, strings.Join(Cities(), ", "))
}

// Starlink resolves the Starlink profile: the seed-001 defaults, then for a
// city ("" for none) the Melbourne site and the city's terrestrial leg, then
// the overrides (dotted parameter paths), then cross-parameter checks.
func Starlink(city string, overrides map[string]any) (*StarlinkProfile, error) {
	return LoadStarlink(nil, city, overrides)
}

// StarlinkNamed resolves the Starlink profile called name (NameStarlink or
// NameStarlinkSeed001) for a city ("" for none) with overrides.
func StarlinkNamed(name, city string, overrides map[string]any) (*StarlinkProfile, error) {
	if !IsStarlink(name) {
		return nil, fmt.Errorf("profile: %q is not a Starlink profile (allowed: %s, %s)", name, NameStarlink, NameStarlinkSeed001)
	}
	return loadStarlink(name, nil, city, overrides)
}

// LoadStarlink is Starlink with a user profile file (YAML in the layout of
// `leolab profile show starlink`) applied over the defaults before the city
// and overrides. data may be nil.
func LoadStarlink(data []byte, city string, overrides map[string]any) (*StarlinkProfile, error) {
	return loadStarlink(NameStarlink, data, city, overrides)
}

// loadStarlink resolves a Starlink profile: the seed-001 defaults, the
// user's file, then for a city the Melbourne site block (NameStarlink
// only) and the city's own overrides, then the overrides.
func loadStarlink(name string, data []byte, city string, overrides map[string]any) (*StarlinkProfile, error) {
	sp := &StarlinkProfile{Name: name, City: city}
	ps := params(sp)
	if err := loadInto(ps, "starlink.yaml"); err != nil {
		return nil, err
	}
	if data != nil {
		es, err := flatten(data)
		if err == nil {
			err = apply(ps, es, "profile file")
		}
		if err != nil {
			return nil, fmt.Errorf("profile file: %w", err)
		}
	}
	if city != "" {
		cf, err := readCities()
		if err != nil {
			return nil, err
		}
		ci, ok := cf.Cities[city]
		if !ok {
			return nil, unknownCity(city)
		}
		if name == NameStarlink {
			if err := apply(ps, overrideEntries(cf.Site), "cities.yaml site"); err != nil {
				return nil, err
			}
		}
		if err := apply(ps, overrideEntries(ci.Overrides), "cities.yaml "+city); err != nil {
			return nil, err
		}
	}
	if err := apply(ps, overrideEntries(overrides), "override"); err != nil {
		return nil, err
	}
	if err := sp.Validate(); err != nil {
		return nil, err
	}
	return sp, nil
}

// Fixed resolves the fixed-link profile with overrides.
func Fixed(overrides map[string]any) (*FixedProfile, error) {
	fp := &FixedProfile{Name: NameFixed}
	ps := params(fp)
	if err := loadInto(ps, "fixed.yaml"); err != nil {
		return nil, err
	}
	if err := apply(ps, overrideEntries(overrides), "override"); err != nil {
		return nil, err
	}
	return fp, checkAll(ps)
}

// Show prints the resolved parameters of a built-in profile as YAML (the
// form LoadStarlink reads back). city applies to starlink only.
func Show(name, city string) (string, error) {
	switch name {
	case NameStarlink, NameStarlinkSeed001:
		sp, err := StarlinkNamed(name, city, nil)
		if err != nil {
			return "", err
		}
		return sp.YAML(), nil
	case NameFixed:
		if city != "" {
			return "", fmt.Errorf("city: profile fixed has no city (got %q)", city)
		}
		fp, err := Fixed(nil)
		if err != nil {
			return "", err
		}
		return render(params(fp), "# profile fixed\n"), nil
	}
	return "", fmt.Errorf("profile: unknown profile %q (allowed: %s)", name, strings.Join(Names(), ", "))
}
