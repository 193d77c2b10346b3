// Package profile owns leolab's link profiles: the embedded YAML files that
// hold every number of the Starlink access-link model (with the source of
// each default), the fixed-link profile for controlled studies, and the city
// profiles (Starlink access from the Melbourne dish plus a terrestrial leg).
// It parses them into typed structs (durations as time.Duration, rates in
// bits/s), applies overrides by dotted parameter path, validates every value
// against its allowed range and prints the resolved parameters as YAML.
//
// The unit parsers (ParseRate, ParseDuration, FormatRate) live here too, so
// scenario files and the CLI read "100Mbps" and "45ms" the same way.
package profile
