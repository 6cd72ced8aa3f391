# A load on a dm-integrity mapping with the crc32c internal hash (issue 23):
# 64 KiB random I/O, half reads, QD4, every block verified.  dm-integrity's
# hash is an shash held from table load: crc32c_intel hot-loaded changes
# nothing until --dm-reload (see doc/dm.md)
# Use: dixload --dev /dev/mapper/NAME --profile dm-integrity-crc32c [--runtime 24 --hotload crc32c_intel@8 --dm-reload /dev/mapper/NAME@16]
pi-format = none
rw = randrw
rwmixread = 50
bs = 64k
iodepth = 4
engine = libaio
verify = on
# a sector never written has no valid tag and reads as an error: write first
precondition = on
