KNOWN_LABELS = {"megatron": "", "short": "", "amd": "", "ft-long": ""}
