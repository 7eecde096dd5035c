package wine

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

var version = sync.OnceValues(func() (string, bool) {
	proc := windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version")
	if proc.Find() != nil {
		return "", false
	}
	// const char *wine_get_version(void): a static string of Wine's.
	r, _, _ := proc.Call()
	return windows.BytePtrToString(*(**byte)(unsafe.Pointer(&r))), true
})
