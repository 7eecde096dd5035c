/*
 * bcryptprimitives.dll for Wine 8.0, which lacks it: Go >= 1.22 programs on
 * Windows draw their random bytes from bcryptprimitives!ProcessPrng and die
 * at start without it. This forwarder fills the buffer from
 * advapi32!SystemFunction036 (RtlGenRandom), which Wine has. Built by
 * scripts/wine/setup with mingw-w64; never committed as a binary.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	/* RtlGenRandom takes a ULONG length: fill larger buffers in pieces. */
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
