# A load on a dm-crypt aes-xts-plain64 mapping (issue 23): 64 KiB random I/O,
# half reads, QD4, every block verified.  The mapping keeps the TFMs it
# allocated at table load: a hot-loaded aesni_intel changes nothing until
# --dm-reload (measured in the 6.1 guest: see doc/dm.md)
# Use: dixload --dev /dev/mapper/NAME --profile dm-crypt-xts [--runtime 24 --hotload aesni_intel@8 --dm-reload /dev/mapper/NAME@16]
pi-format = none
rw = randrw
rwmixread = 50
bs = 64k
iodepth = 4
engine = libaio
verify = on
# a steady "before": every block written once, so reads decrypt real data
precondition = on
