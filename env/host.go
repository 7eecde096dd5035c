package env

// Host is the environment of one measurement. Fields that could not be
// read are recorded as unknown, with the reason, never guessed.
// (Filled in by the env capture; see Capture.)
type Host struct {
	// Warnings are the conditions that spoil measurements, each with the
	// next step in its text.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is a condition of the environment that spoils measurements.
type Warning struct {
	// Code is a stable identifier, e.g. "governor", "hypervisor", "race".
	Code string `json:"code"`
	// Message says what is wrong and what to do about it.
	Message string `json:"message"`
}

func (w Warning) Error() string { return w.Message }
