/* floor: reads a file once and touches every 8-byte slot: the least any
 * reader of it can cost.  Prints the sum so the work is not optimized out. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 20];
	uint64_t sum = 0;
	ssize_t got;
	int fd = argc > 1 ? open(argv[1], O_RDONLY) : 0;

	if (fd < 0) {
		perror("floor");
		return 2;
	}
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i + 8 <= got; i += 8) {
			uint64_t v;

			memcpy(&v, buf + i, 8);
			sum += v;
		}
	}
	printf("%llu\n", (unsigned long long)sum);
	return got < 0 ? 2 : 0;
}
