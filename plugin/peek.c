/*
** peek.c: a plugin's ABI read from its file before it is loaded.  A plugin
** built against another graft's headers may name symbols this graft does
** not export (an older one's internals): dlopen() then fails on an
** undefined symbol, and the loader could not say why.  So plugin_load()
** first finds the entry point's symbol in the file's dynamic symbol
** table and reads its first field, the ABI it was built for, from the
** file, without running or relocating anything (ELF, 32 or 64 bits, of
** the host's byte order).  Every offset read is checked against the
** file's size: a broken file gives "unknown", never a crash; and one whose
** loadable segments lie past its end (cut short) is said to be broken,
** as dlopen() would fault on it.
*/
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* at: n bytes of f at off into p; 0, or -1 past the end or on error */
static int
at(FILE *f, long size, uint64_t off, void *p, size_t n)
{
	if (off > (uint64_t)size || n > (uint64_t)size - off || fseek(f, (long)off, SEEK_SET) != 0)
		return -1;
	return fread(p, 1, n, f) == n ? 0 : -1;
}

/* A section header, the same for 32 and 64 bits. */
typedef struct Sec { uint64_t off, size, link, entsize; uint32_t type; } Sec;

/* sec: section header i of the file whose header is e64 or e32 */
static int
sec(FILE *f, long size, int is64, uint64_t shoff, uint64_t shentsize, uint64_t i, Sec *s)
{
	if (is64) {
		Elf64_Shdr h;
		if (shentsize < sizeof h || at(f, size, shoff + i * shentsize, &h, sizeof h))
			return -1;
		*s = (Sec){ h.sh_offset, h.sh_size, h.sh_link, h.sh_entsize, h.sh_type };
	} else {
		Elf32_Shdr h;
		if (shentsize < sizeof h || at(f, size, shoff + i * shentsize, &h, sizeof h))
			return -1;
		*s = (Sec){ h.sh_offset, h.sh_size, h.sh_link, h.sh_entsize, h.sh_type };
	}
	return 0;
}

/* A program header, the same for 32 and 64 bits. */
typedef struct Seg { uint64_t type, vaddr, off, filesz; } Seg;

/* seg: program header i of the file */
static int
seg(FILE *f, long size, int is64, uint64_t phoff, uint64_t phentsize, uint64_t i, Seg *g)
{
	if (is64) {
		Elf64_Phdr h;
		if (phentsize < sizeof h || at(f, size, phoff + i * phentsize, &h, sizeof h))
			return -1;
		*g = (Seg){ h.p_type, h.p_vaddr, h.p_offset, h.p_filesz };
	} else {
		Elf32_Phdr h;
		if (phentsize < sizeof h || at(f, size, phoff + i * phentsize, &h, sizeof h))
			return -1;
		*g = (Seg){ h.p_type, h.p_vaddr, h.p_offset, h.p_filesz };
	}
	return 0;
}

/* fileoff: the file offset of address va, through the program headers */
static int
fileoff(FILE *f, long size, int is64, uint64_t phoff, uint64_t phentsize, uint64_t phnum, uint64_t va,
        uint64_t *off)
{
	Seg g;

	for (uint64_t i = 0; i < phnum && i < 4096; i++) {
		if (seg(f, size, is64, phoff, phentsize, i, &g))
			return -1;
		if (g.type == PT_LOAD && va >= g.vaddr && va - g.vaddr < g.filesz) {
			*off = g.off + (va - g.vaddr);
			return 0;
		}
	}
	return -1;
}

/* plugin_peek_abi: see host.h */
int
plugin_peek_abi(const char *path, uint32_t *abi)
{
	static const char want[] = GRAFT_PLUGIN_ENTRY;
	unsigned char id[EI_NIDENT];
	uint64_t shoff, shentsize, shnum, phoff, phentsize, phnum;
	int is64, found = -1;
	long size;
	FILE *f = fopen(path, "rb");
	const uint16_t one = 1;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || at(f, size, 0, id, sizeof id) ||
	    memcmp(id, ELFMAG, SELFMAG) != 0 || (id[EI_CLASS] != ELFCLASS64 && id[EI_CLASS] != ELFCLASS32) ||
	    id[EI_DATA] != (*(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB))
		goto out;
	is64 = id[EI_CLASS] == ELFCLASS64;
	if (is64) {
		Elf64_Ehdr e;
		if (at(f, size, 0, &e, sizeof e))
			goto out;
		shoff = e.e_shoff, shentsize = e.e_shentsize, shnum = e.e_shnum;
		phoff = e.e_phoff, phentsize = e.e_phentsize, phnum = e.e_phnum;
	} else {
		Elf32_Ehdr e;
		if (at(f, size, 0, &e, sizeof e))
			goto out;
		shoff = e.e_shoff, shentsize = e.e_shentsize, shnum = e.e_shnum;
		phoff = e.e_phoff, phentsize = e.e_phentsize, phnum = e.e_phnum;
	}
	/* what dlopen() maps must be in the file: the loader faults on a
	** file cut short rather than refusing it */
	if (phnum == 0 || phnum > 4096) {
		found = -2;
		goto out;
	}
	for (uint64_t i = 0; i < phnum; i++) {
		Seg g;
		if (seg(f, size, is64, phoff, phentsize, i, &g) ||
		    (g.type == PT_LOAD && (g.off > (uint64_t)size || g.filesz > (uint64_t)size - g.off))) {
			found = -2;
			goto out;
		}
	}
	for (uint64_t i = 0; i < shnum && i < 65536 && found < 0; i++) {
		Sec s, str;
		if (sec(f, size, is64, shoff, shentsize, i, &s) || s.type != SHT_DYNSYM)
			continue;
		if (sec(f, size, is64, shoff, shentsize, s.link, &str) ||
		    s.entsize < (is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym)))
			goto out;
		for (uint64_t k = 0; k < s.size / s.entsize && k < (1u << 20); k++) {
			uint64_t name, value, off;
			char buf[sizeof want];
			if (is64) {
				Elf64_Sym y;
				if (at(f, size, s.off + k * s.entsize, &y, sizeof y))
					goto out;
				name = y.st_name, value = y.st_value;
				if (y.st_shndx == SHN_UNDEF)
					continue;
			} else {
				Elf32_Sym y;
				if (at(f, size, s.off + k * s.entsize, &y, sizeof y))
					goto out;
				name = y.st_name, value = y.st_value;
				if (y.st_shndx == SHN_UNDEF)
					continue;
			}
			if (name >= str.size || at(f, size, str.off + name, buf, sizeof buf) ||
			    memcmp(buf, want, sizeof want) != 0)
				continue;
			if (!fileoff(f, size, is64, phoff, phentsize, phnum, value, &off) && !at(f, size, off, abi, 4))
				found = 0;
			break;
		}
	}
out:
	fclose(f);
	return found;
}
